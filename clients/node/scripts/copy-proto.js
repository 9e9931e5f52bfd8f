// `npm pack` runs this first: the package carries the proto it was made from, so an installed
// copy needs nothing of the repository.
'use strict';

const fs = require('fs');
const path = require('path');

const source = path.join(__dirname, '..', '..', '..', 'proto', 'tourney', 'v1', 'arena.proto');
fs.copyFileSync(source, path.join(__dirname, '..', 'arena.proto'));

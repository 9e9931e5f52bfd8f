"""Tournament formats: how each round is paired (round robin, gauntlet, Swiss with FIDE Dutch, pods, solo), the
registry that names them (registry.py), TRF in and out, and the keyed match seeds."""

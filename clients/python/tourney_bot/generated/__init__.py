"""Generated from proto/tourney/v1/arena.proto by `python -m tourney.engine.server.codegen`; do not edit."""

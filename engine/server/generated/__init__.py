"""Generated from proto/tourney/v1/arena.proto by `python -m engine.server.codegen`; do not edit."""

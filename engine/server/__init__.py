"""The gRPC Arena: one service hosts every game; bots in any language connect and play.

The contract is proto/tourney/v1/arena.proto; its generated Python code lives in
engine/server/generated/ (regenerate with `python -m tourney.engine.server.codegen`).
"""

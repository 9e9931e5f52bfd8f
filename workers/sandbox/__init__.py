"""Hosted bots: bundles packed and unpacked with limits, cached by content hash, and run in a sandbox.

The sandbox is bubblewrap (namespaces: no network, a private pid space, read-only system and
bundle, a tmpfs scratch that dies with the match) plus a cgroup v1 per process (memory, pids,
one CPU), or rlimits where no cgroup can be made. In a container that hides part of /proc the
bot gets no /proc and a seccomp filter of ours against user namespaces (probes.py finds out).
"""

from tourney.workers.sandbox.bundle import BundleError, pack_bundle, unpack_bundle
from tourney.workers.sandbox.cache import cached_bundle
from tourney.workers.sandbox.limits import SandboxLimits, SandboxUnavailable, require_bwrap
from tourney.workers.sandbox.process import SandboxedProgram

__all__ = ["BundleError", "SandboxLimits", "SandboxUnavailable", "SandboxedProgram", "cached_bundle",
           "pack_bundle", "require_bwrap", "unpack_bundle"]

"""A seccomp filter that stops a sandboxed bot from making user namespaces, for bwrap's --seccomp.

bwrap's own --disable-userns writes the sandbox's /proc/sys, which needs a /proc of its own; where
none can be mounted (a container with Docker's masked /proc) this filter does the same job: clone
and unshare with CLONE_NEWUSER fail with EPERM, clone3 (whose flags a filter cannot read) with
ENOSYS so that the C library falls back to clone, and system calls of any other ABI (32-bit x86,
x32) with EPERM so none of them gets round the numbers below. A classic BPF program, as the kernel
reads it: no library needed.
"""

from __future__ import annotations

import errno
import os
import platform
import struct

# Instruction codes (linux/filter.h) and seccomp's return values (linux/seccomp.h).
LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_AT_LEAST = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JUMP_ANY_BIT = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
ALLOW = 0x7FFF0000
FAIL_WITH = 0x00050000  # | errno
CLONE_NEWUSER = 0x10000000
X32_BIT = 0x40000000  # set in every x32 system call number
# struct seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low half on these little-endian machines).
NR, ARCH, FIRST_ARG = 0, 4, 16
# The machine's audit architecture and its (clone, unshare, clone3) numbers.
ABIS = {"x86_64": (0xC000003E, (56, 272, 435)), "aarch64": (0xC00000B7, (220, 97, 435))}


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def no_user_namespaces() -> bytes:
    """The program for this machine (x86_64 or aarch64)."""
    machine = platform.machine()
    if machine not in ABIS:
        raise OSError(f"no user-namespace filter for {machine}")
    arch, (clone, unshare, clone3) = ABIS[machine]
    # Jump offsets count instructions after the next one: the labels are at 9 (allow), 10 (EPERM), 11 (ENOSYS).
    return b"".join([
        _op(LOAD_WORD, ARCH),                    # 0
        _op(JUMP_EQUAL, arch, 0, 8),             # 1: another ABI -> EPERM
        _op(LOAD_WORD, NR),                      # 2
        _op(JUMP_AT_LEAST, X32_BIT, 6, 0),       # 3: x32 -> EPERM
        _op(JUMP_EQUAL, clone3, 6, 0),           # 4: -> ENOSYS
        _op(JUMP_EQUAL, clone, 1, 0),            # 5: -> its flags
        _op(JUMP_EQUAL, unshare, 0, 2),          # 6: -> its flags, else allow
        _op(LOAD_WORD, FIRST_ARG),               # 7: the flags
        _op(JUMP_ANY_BIT, CLONE_NEWUSER, 1, 0),  # 8: a new user namespace -> EPERM
        _op(RETURN, ALLOW),                      # 9
        _op(RETURN, FAIL_WITH | errno.EPERM),    # 10
        _op(RETURN, FAIL_WITH | errno.ENOSYS),   # 11
    ])


def filter_fd() -> int:
    """A pipe's read end holding the program, for `bwrap --seccomp FD` (the caller closes it)."""
    program = no_user_namespaces()
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, program)  # 96 bytes: far below a pipe's buffer
    finally:
        os.close(write_end)
    return read_end

"""The deploy stack's containers can run hosted bots in bubblewrap, with no more than bwrap needs.

deploy/check.sh runs a hosted bot in the real stack; these tests pin the settings it relies on, so an
edit that drops one (or reaches for --privileged) fails here first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PROFILE = "deploy/seccomp/bwrap.json"
K8S_PROFILE = "tourney-bwrap.json"  # its name in each node's kubelet seccomp folder
BWRAP_NEEDS = {"clone", "clone3", "unshare", "mount", "umount2", "pivot_root", "sethostname", "prctl", "capset"}
# Kernel interfaces an unprivileged process can reach and none of tourney's uses: refused, as by Docker's default.
MUST_REFUSE = {"bpf", "keyctl", "add_key", "request_key", "userfaultfd", "perf_event_open", "ptrace",
               "process_vm_readv", "process_vm_writev", "kexec_load", "init_module", "finit_module",
               "open_by_handle_at", "io_uring_setup", "setns"}


def refused() -> set[str]:
    profile = json.loads((ROOT / PROFILE).read_text())
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    names: set[str] = set()
    for rule in profile["syscalls"]:
        assert rule["action"] == "SCMP_ACT_ERRNO" and "args" not in rule, rule
        names |= set(rule["names"])
    return names


def test_the_profile_allows_what_bwrap_needs_and_refuses_the_rest() -> None:
    names = refused()
    assert not names & BWRAP_NEEDS
    assert names >= MUST_REFUSE


def test_every_tourney_container_in_compose_can_run_bwrap_unprivileged() -> None:
    services: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())["services"]
    tourney = {name: svc for name, svc in services.items() if svc.get("image") == "tourney:latest"}
    assert {"arena", "ray-head", "ray-worker", "driver"} <= set(tourney)
    for name, svc in tourney.items():
        assert not svc.get("privileged"), name
        assert svc["cap_drop"] == ["ALL"], name
        assert sorted(svc["security_opt"]) == ["no-new-privileges:true", f"seccomp={PROFILE}"], name


def pods_that_play() -> dict[str, dict[str, Any]]:
    """The Kubernetes pods that may start hosted bots: Ray workers and the arena."""
    docs = [d for p in sorted((DEPLOY / "k8s").glob("*.yaml")) if p.name != "kustomization.yaml"
            for d in yaml.safe_load_all(p.read_text()) if d]
    pods = {}
    for doc in docs:
        if doc["kind"] == "RayCluster":
            for group in doc["spec"]["workerGroupSpecs"]:
                pods[f"ray-{group['groupName']}"] = group["template"]["spec"]
        elif doc["kind"] == "Deployment":
            pods[doc["metadata"]["name"]] = doc["spec"]["template"]["spec"]
    return pods


def test_kubernetes_pods_that_play_get_the_same_least_privilege() -> None:
    pods = pods_that_play()
    assert {"ray-players", "tourney-arena"} <= set(pods)
    for name, pod in pods.items():
        for container in pod["containers"]:
            context = container["securityContext"]
            assert context["seccompProfile"] == {"type": "Localhost", "localhostProfile": K8S_PROFILE}, name
            assert context["allowPrivilegeEscalation"] is False and "procMount" not in context, name
            assert context["capabilities"] == {"drop": ["ALL"]} and context["runAsNonRoot"] is True, name
            assert not context.get("privileged"), name
    readme = (DEPLOY / "README.md").read_text()
    assert f"/var/lib/kubelet/seccomp/{K8S_PROFILE}" in readme  # where the nodes must have the profile

"""deploy/: compose renders, Kubernetes manifests carry their kinds' fields, every command line is real."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import click
import pytest
import typer
import yaml
from croniter import croniter

import tourney.tournament.cli.league  # noqa: F401  (registers `tourney league`)
import tourney.tournament.cli.serve  # noqa: F401  (registers `tourney serve`)
from tourney.tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
PLACEHOLDER = re.compile(r"\$\(([A-Z_][A-Z0-9_]*)\)")


def k8s_docs() -> list[dict[str, Any]]:
    return [d for p in sorted(K8S.glob("*.yaml")) if p.name != "kustomization.yaml"
            for d in yaml.safe_load_all(p.read_text()) if d]


def by_kind(kind: str) -> list[dict[str, Any]]:
    return [d for d in k8s_docs() if d["kind"] == kind]


def config_data() -> dict[str, str]:
    (cm,) = by_kind("ConfigMap")
    return dict(cm["data"])


def pod_specs() -> list[dict[str, Any]]:
    specs = [d["spec"]["template"]["spec"] for d in by_kind("Deployment")]
    specs += [d["spec"]["jobTemplate"]["spec"]["template"]["spec"] for d in by_kind("CronJob")]
    for rc in by_kind("RayCluster"):
        specs.append(rc["spec"]["headGroupSpec"]["template"]["spec"])
        specs += [g["template"]["spec"] for g in rc["spec"]["workerGroupSpecs"]]
    return specs


def compose() -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return doc


# ------------------------------------------------------------------------------- command lines


def check_tourney(argv: list[str]) -> None:
    """Parse argv with the real `tourney` command tree: unknown commands, options or bad values fail."""
    assert argv[0] == "tourney", argv
    # Typer ships its own copy of click: duck typing, not isinstance against the click package.
    command: Any = typer.main.get_command(app)
    args = list(argv[1:])
    path = ["tourney"]
    while hasattr(command, "list_commands"):
        assert args, f"{' '.join(argv)}: no subcommand"
        name = args.pop(0)
        sub = command.get_command(command.context_class(command), name)
        assert sub is not None, f"{' '.join(argv)}: `{' '.join(path)}` has no command '{name}'"
        command, path = sub, [*path, name]
    try:
        command.make_context(" ".join(path), args)
    except Exception as exc:  # typer's click raises its own UsageError / BadParameter
        message = exc.format_message() if hasattr(exc, "format_message") else repr(exc)
        raise AssertionError(f"{' '.join(argv)}: {message}") from None


def check_ray(argv: list[str]) -> None:
    from ray.scripts.scripts import start

    assert argv[:2] == ["ray", "start"], argv
    try:
        start.make_context("ray start", list(argv[2:]))
    except click.ClickException as exc:
        raise AssertionError(f"{' '.join(argv)}: {exc.format_message()}") from None


def check_command(argv: list[str], env: dict[str, str]) -> None:
    def fill(arg: str) -> str:
        # $(VAR) is Kubernetes' expansion from the container's env: it must be defined.
        for var in PLACEHOLDER.findall(arg):
            assert var in env, f"{' '.join(argv)}: $({var}) is not in the container's environment"
        return PLACEHOLDER.sub(lambda m: env[m.group(1)], arg)

    filled = [fill(a) for a in argv]
    if filled[0] == "tourney":
        check_tourney(filled)
    elif filled[0] == "ray":
        check_ray(filled)
    else:
        raise AssertionError(f"unexpected program in {argv}")


def test_the_checker_rejects_made_up_commands_and_flags() -> None:
    for bad in (["tourney", "leagues", "run-due"], ["tourney", "league", "run-due", "--every", "60"],
                ["tourney", "serve", "--port", "many"], ["tourney", "run", "--no-such-flag"]):
        with pytest.raises(AssertionError):
            check_tourney(bad)
    with pytest.raises(AssertionError):
        check_ray(["ray", "start", "--headd"])
    check_tourney(["tourney", "league", "run-due", "--db", "x.db", "--watch", "60"])


def test_every_kubernetes_command_is_a_real_command() -> None:
    data = config_data()
    seen = 0
    for spec in pod_specs():
        for container in spec["containers"]:
            argv = [*container.get("command", []), *container.get("args", [])]
            if not argv:
                continue
            env = {k: v for k, v in data.items() if re.fullmatch(r"[A-Z_][A-Z0-9_]*", k)}
            env.update({e["name"]: e.get("value", "postgresql://u:p@db:5432/t") for e in container.get("env", [])})
            check_command(argv, env)
            seen += 1
    assert seen >= 2


def test_ray_start_params_are_real_ray_start_options() -> None:
    for rc in by_kind("RayCluster"):
        groups = [rc["spec"]["headGroupSpec"], *rc["spec"]["workerGroupSpecs"]]
        for group in groups:
            params = group["rayStartParams"]
            argv = ["ray", "start", *(f"--{k}={v}" for k, v in params.items())]
            if group is groups[0]:
                argv.append("--head")
            else:
                argv.append("--address=tourney-ray-head-svc:6379")
            check_ray(argv)


def test_every_compose_command_is_a_real_command() -> None:
    doc = compose()
    seen = 0
    for name, service in doc["services"].items():
        command = service.get("command")
        if not command or name in ("prometheus",):
            continue  # prometheus' flags belong to its own image
        argv = [re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", a) for a in command]
        check_command(argv, {})
        seen += 1
    assert seen >= 4  # ray-head, ray-worker, arena, driver


SECRETS = {"POSTGRES_PASSWORD": "pg-9f2c1d7e", "TOURNEY_ADMIN_TOKEN": "Zq8-vY2rK1xW7pLm4tN0",
           "GRAFANA_ADMIN_PASSWORD": "gf-4b8e0a2c"}


def test_compose_renders_with_docker_compose() -> None:
    import os

    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.fail("docker-compose is not installed: install Debian's `docker-compose` package (as .ci/run does).",
                    pytrace=False)
    env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    # From the repository's folder, as the README runs it: docker-compose reads the seccomp profile from there.
    done = subprocess.run([binary, "-f", str(DEPLOY / "compose.yaml"), "config"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env={**env, **SECRETS})
    assert done.returncode == 0, done.stderr
    rendered = yaml.safe_load(done.stdout)
    assert {"arena", "driver", "ray-head", "ray-worker", "postgres", "prometheus", "grafana"} == set(
        rendered["services"])
    # Everything mounted from deploy/ exists.
    for service in compose()["services"].values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (DEPLOY / source).exists(), source
    # No default secrets: without them compose refuses to start, naming the variable.
    done = subprocess.run([binary, "-f", str(DEPLOY / "compose.yaml"), "config"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=env)
    assert done.returncode != 0 and "set " in done.stderr and "deploy/.env" in done.stderr


def test_compose_has_one_league_scheduler_and_drivers_use_ray_client() -> None:
    services = compose()["services"]
    schedulers = [name for name, svc in services.items()
                  if "--leagues" in (svc.get("command") or []) or "run-due" in (svc.get("command") or [])]
    assert schedulers == ["arena"]  # where remote bots connect
    assert services["driver"]["environment"]["RAY_ADDRESS"].startswith("ray://ray-head:10001")
    for name, svc in services.items():
        command = " ".join(svc.get("command") or [])
        assert "POSTGRES_PASSWORD" not in command and "postgresql://" not in command, name  # no password in argv
        assert "--dashboard-host=0.0.0.0" not in command, name
        if "ray" in command.split()[:1]:
            # `ray start` reads RAY_ADDRESS, and takes only HOST:PORT: the Ray nodes must not inherit ray://.
            assert "RAY_ADDRESS" not in (svc.get("environment") or {}), name
    for published in services["prometheus"]["ports"]:
        assert published.startswith("127.0.0.1:")


def test_one_ray_version_for_the_image_the_cluster_and_pyproject() -> None:
    import ray

    pins = re.findall(r'"ray\[default\]==([0-9.]+)"', (ROOT / "pyproject.toml").read_text())
    (rc,) = by_kind("RayCluster")
    assert pins == [ray.__version__] == [rc["spec"]["rayVersion"]]


# ------------------------------------------------------------------------------- Kubernetes fields


def test_every_manifest_has_api_version_kind_and_name() -> None:
    docs = k8s_docs()
    assert {d["kind"] for d in docs} >= {"RayCluster", "Deployment", "Service", "CronJob", "ConfigMap"}
    for d in docs:
        assert d["apiVersion"] and d["kind"] and d["metadata"]["name"], d
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == sorted(p.name for p in K8S.glob("*.yaml")
                                                        if p.name != "kustomization.yaml")


def check_pod(spec: dict[str, Any], names: set[str]) -> None:
    assert spec["containers"], spec
    for c in spec["containers"]:
        assert c["name"] and c["image"], c
        for port in c.get("ports", []):
            assert 0 < int(port["containerPort"]) < 65536
        for ref in c.get("envFrom", []):
            assert ref["configMapRef"]["name"] in names
    for volume in spec.get("volumes", []):
        if "configMap" in volume:
            assert volume["configMap"]["name"] in names
            keys = set(config_data())
            assert all(item["key"] in keys for item in volume["configMap"].get("items", []))
    mounts = {m["name"] for c in spec["containers"] for m in c.get("volumeMounts", [])}
    assert mounts <= {v["name"] for v in spec.get("volumes", [])}


def test_deployment_service_cronjob_and_raycluster_fields() -> None:
    configmaps = {d["metadata"]["name"] for d in by_kind("ConfigMap")}
    deployments = by_kind("Deployment")
    for dep in deployments:
        assert dep["apiVersion"] == "apps/v1"
        selector = dep["spec"]["selector"]["matchLabels"]
        labels = dep["spec"]["template"]["metadata"]["labels"]
        assert selector.items() <= labels.items(), "the selector must match the pod template's labels"
        check_pod(dep["spec"]["template"]["spec"], configmaps)
    for svc in by_kind("Service"):
        assert svc["apiVersion"] == "v1" and svc["spec"]["ports"]
        matched = [d for d in deployments
                   if svc["spec"]["selector"].items() <= d["spec"]["template"]["metadata"]["labels"].items()]
        assert matched, f"service {svc['metadata']['name']} selects no pods"
        port_names = {p.get("name") for d in matched for c in d["spec"]["template"]["spec"]["containers"]
                      for p in c.get("ports", [])}
        for port in svc["spec"]["ports"]:
            assert isinstance(port["targetPort"], int) or port["targetPort"] in port_names
    for job in by_kind("CronJob"):
        assert job["apiVersion"] == "batch/v1"
        assert croniter.is_valid(job["spec"]["schedule"])
        pod = job["spec"]["jobTemplate"]["spec"]["template"]["spec"]
        assert pod["restartPolicy"] in ("OnFailure", "Never")
        check_pod(pod, configmaps)
    for rc in by_kind("RayCluster"):
        assert rc["apiVersion"] == "ray.io/v1"
        import ray

        assert rc["spec"]["rayVersion"] == ray.__version__, "the cluster must run the image's Ray version"
        check_pod(rc["spec"]["headGroupSpec"]["template"]["spec"], configmaps)
        for group in rc["spec"]["workerGroupSpecs"]:
            assert group["groupName"]
            assert group["minReplicas"] <= group["replicas"] <= group["maxReplicas"]
            check_pod(group["template"]["spec"], configmaps)
    for cm in by_kind("ConfigMap"):
        assert all(isinstance(v, str) for v in cm["data"].values()), "ConfigMap values must be strings"
    # Drivers in pods without a Ray node join through Ray Client on the head's service.
    address = config_data()["TOURNEY_RAY_ADDRESS"]
    (rc,) = by_kind("RayCluster")
    assert address.startswith(f"ray://{rc['metadata']['name']}-head-svc") and address.endswith(":10001")
    assert "RAY_ADDRESS" not in config_data()  # the Ray pods load this ConfigMap: `ray start` would read it
    assert rc["spec"]["headGroupSpec"]["rayStartParams"]["dashboard-host"] == "127.0.0.1"
    for pod in pod_specs():
        for container in pod["containers"]:
            assert not any("TOURNEY_DB" in a or "postgresql://" in a for a in container.get("command", []))


def test_dockerfile_copies_what_exists_and_runs_tourney() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert text.startswith("#") and "ARG BASE=python:3.11" in text and "FROM ${BASE}" in text
    for line in text.splitlines():
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                if "[" not in source:  # deploy/wheel[s]: the optional offline wheels
                    assert (ROOT / source).exists(), source
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert "*" in ignored and "!deploy/wheels" in ignored  # a small context: no .venv, no databases
    assert 'CMD ["tourney", "--help"]' in text
    for port in ("50051", "9464", "9465"):
        assert port in text.split("EXPOSE", 1)[1].splitlines()[0]

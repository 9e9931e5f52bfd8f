"""The package list for pyproject.toml: the product's top-level folders install as `tourney.<folder>`.

Every folder keeps its place in the repository (engine/, workers/, tournament/, web/) and installs
under the one package `tourney`, so nothing else lands at the top of site-packages.
"""

from setuptools import find_packages, setup

LAYERS = ("engine", "workers", "tournament", "web", "envs")


def layout() -> tuple[dict[str, str], list[str]]:
    """The folder of each layer, and every package name under `tourney` (a function: setup.py is exec'd)."""
    package_dir = {f"tourney.{layer}": layer for layer in LAYERS}
    packages = [f"tourney.{layer}" for layer in LAYERS]
    packages += [f"tourney.{layer}.{sub}" for layer in LAYERS for sub in find_packages(layer)]
    return package_dir, packages


package_dir, packages = layout()
setup(package_dir=package_dir, packages=packages)

#!/usr/bin/env bash
# Builds a bot on the Go SDK from Debian's packages alone (no module proxy): GOPATH mode, stubs
# generated from proto/ into gopath/src/tourney/v1. `build.sh [BOT]` builds src/BOT (a package main;
# default randombot) into bin/BOT.
# GOCACHE stays under this folder (or $TOURNEY_GOCACHE), so only the first build compiles Debian's grpc
# (measured on 2 cores: about 21 s cold, under 1 s warm).
set -euo pipefail
bot="${1:-randombot}"
here="$(cd "$(dirname "$0")" && pwd)"
proto="$here/../../proto"
if [ ! -d "$here/src/$bot" ]; then
  echo "error: there is no bot folder $here/src/$bot: put your package main there, or build randombot." >&2
  exit 2
fi
missing=()
for tool in go protoc protoc-gen-go protoc-gen-go-grpc; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ] || [ ! -d /usr/share/gocode/src/google.golang.org/grpc ]; then
  echo "error: the Go SDK needs Debian's packages: apt-get install golang-go golang-google-grpc-dev" \
       "golang-google-protobuf-dev protobuf-compiler protoc-gen-go protoc-gen-go-grpc" \
       "golang-github-golang-protobuf-1-5-dev" >&2
  exit 2
fi
if command -v dpkg >/dev/null 2>&1 && ! dpkg -s golang-github-golang-protobuf-1-5-dev >/dev/null 2>&1; then
  echo "error: Debian's protobuf 1.3 runtime for Go makes the first stream.Send panic: apt-get install" \
       "golang-github-golang-protobuf-1-5-dev (it replaces golang-github-golang-protobuf-1-3-dev)." >&2
  exit 2
fi
gen="$here/gopath/src"
mkdir -p "$gen" "$here/bin"
protoc -I "$proto" --go_out="$gen" --go-grpc_out="$gen" "$proto/tourney/v1/arena.proto"
export GO111MODULE=off GOPATH="$here/gopath:$here:/usr/share/gocode"
export GOCACHE="${TOURNEY_GOCACHE:-$here/.gocache}"
go build -o "$here/bin/$bot" "$bot"
echo "built $here/bin/$bot"

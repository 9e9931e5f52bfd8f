#!/usr/bin/env bash
# Builds the Go SDK's example bot from Debian's packages alone (no module proxy): GOPATH mode,
# stubs generated from proto/ into gopath/src/tourney/v1, the binary in bin/randombot.
# GOCACHE stays under this folder (or $TOURNEY_GOCACHE), so only the first build pays the
# ~15 minutes grpc takes to compile on 2 cores.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
proto="$here/../../proto"
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
go build -o "$here/bin/randombot" randombot
echo "built $here/bin/randombot"

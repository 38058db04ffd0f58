#!/usr/bin/env bash
# `make demo`: the main job on built-in defaults — every all-gather algorithm on the seeds' WDM
# ring (1024 nodes, 64 wavelengths, 4 MiB per node), each verified and mapped, then OpTree in
# detail and the reproduction of the OpTree paper's tables.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=./build/opticoll
echo "== opticoll demo: all-gather on the WDM optical ring (TeraRack double ring, seed parameters)"
echo
echo "\$ opticoll compare -c allgather -t ring -n 1024 -w 64 -s 4MiB"
$tool compare -c allgather -t ring -n 1024 -w 64 -s 4MiB
echo
echo "\$ opticoll run -c allgather -a optree -t ring -n 1024 -w 64 -s 4MiB"
$tool run -c allgather -a optree -t ring -n 1024 -w 64 -s 4MiB
echo
echo "\$ opticoll train -m VGG16 -t ring -n 1024 -w 64   # all-reduce of the gradient, every algorithm"
$tool train -m VGG16 -t ring -n 1024 -w 64
echo
echo "\$ opticoll reproduce optree"
$tool reproduce optree

#!/bin/bash
# Remote programs with 5% netem loss on every DCN link (both directions
# of each link lose, each datagram at most once per crossing): the
# pipeline across islands still gives the fused model's result, bit for
# bit, over RDMA and over TCP, and every other remote test passes.
exec "$(dirname "${BASH_SOURCE[0]}")/test_remote.sh" --netem "loss 5%"

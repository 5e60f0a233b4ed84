# Two network namespaces (a source host and a target host) joined by one veth pair, each end addressed in a
# link-local /30 and shaped with tbf at the link's rate (each end's egress: both directions). lo is up in each
# namespace; no default route and no other address, so nothing but the two ends can be reached over the link.
# Arguments: source-ns target-ns source-dev target-dev source-addr target-addr prefix rate burst latency
set -euo pipefail
src_ns=$1 tgt_ns=$2 src_dev=$3 tgt_dev=$4 src_addr=$5 tgt_addr=$6 prefix=$7 rate=$8 burst=$9 latency=${10}
ip netns add "$src_ns"
ip netns add "$tgt_ns"
ip link add "$src_dev" type veth peer name "$tgt_dev"
ip link set "$src_dev" netns "$src_ns"
ip link set "$tgt_dev" netns "$tgt_ns"
for side in "$src_ns $src_dev $src_addr" "$tgt_ns $tgt_dev $tgt_addr"; do
  read -r ns dev addr <<<"$side"
  ip -n "$ns" link set lo up
  ip -n "$ns" addr add "$addr/$prefix" dev "$dev"
  # No IPv6 link-local address either: the /30 is the only address on the link.
  ip -n "$ns" link set dev "$dev" addrgenmode none
  tc -n "$ns" qdisc add dev "$dev" root tbf rate "$rate" burst "$burst" latency "$latency"
  ip -n "$ns" link set "$dev" up
done

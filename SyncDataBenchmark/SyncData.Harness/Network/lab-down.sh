# Removes a two-host lab: its namespaces (which takes the veth ends inside them along) and a veth end still in the
# root namespace (a set-up stopped half-way). Best effort for each; fails only if something is still there after.
# Arguments: source-ns target-ns source-dev
set -uo pipefail
src_ns=$1 tgt_ns=$2 src_dev=$3
for ns in "$src_ns" "$tgt_ns"; do
  ip netns del "$ns" 2>/dev/null
done
ip link del "$src_dev" 2>/dev/null
left=$(ip netns list | awk '{print $1}' | grep -Fx -e "$src_ns" -e "$tgt_ns")
if [[ -n $left ]]; then
  echo "namespaces still present: $left" >&2
  exit 1
fi
exit 0

#!/bin/bash
# tools/paper-report and tools/pwbench-plot on CSV files made here, with
# numbers chosen so that each figure's summary is known: the ratios, the
# first size at parity (or none), the shares, the controller's memory
# per host; and a missing file, column or number fails with its name
# and writes no report.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
d=$(mktemp -d "${TMPDIR:-/tmp}/test_paper_report.XXXXXX")
trap 'rm -rf "$d"' EXIT
. "$root/selftests/lib/tap.sh"

fixture() {
	rm -rf "$d/in"
	mkdir -p "$d/in"
	cd "$d/in" || return 1
	printf 'vcpus=2\nclocksource=tsc\nkernel=6.1.0-test\nndev=8\nmesh=2x4\nhbm_mib=64\ntiming=native\n' >env.txt
	printf 'mode,single_cps,multi_cps,ratio\nOpByOp,300.0,400.0,0.75\nChained,500.0,500.0,1.0\nFused,900.0,800.0,1.125\n' >fig5.csv
	printf 'hosts,mode,median,min,max,multi\n1,OpByOp,100,90,110,200\n1,Chained,200,190,210,200\n1,Fused,400,390,410,400\n2,OpByOp,150,140,160,300.0\n2,Chained,300,290,310,250\n2,Fused,800,790,810,1000\n' >fig5-hosts.csv
	printf 'hosts,ctl_rss_idle_kb,ctl_rss_after_kb,ctl_cpu_ms,runs,ctl_cpu_us_per_run,opbyop_per_s,chained_per_s,fused_per_s,ctl_resent_pct,hosts_cpu_busy_pct,opbyop_multi_per_s,chained_multi_per_s,fused_multi_per_s\n1,5000,5120,40,544,73,4500,12000,270000,1.5,20,9000,12000,300000\n5,5100,9216,400,544,735,320,1300,14000,60.2,95,640,2600,14000\n' >fig5-sim.csv
	printf 'hosts,delay_us,mode,single_cps,multi_cps,ratio\n16,0,OpByOp,20,100,0.2\n16,0,Chained,50,100,0.5\n16,0,Fused,97,100,0.97\n16,4000,OpByOp,96,100,0.96\n16,4000,Chained,98,100,0.98\n16,4000,Fused,99,100,0.99\n512,0,OpByOp,1,10,0.1\n512,0,Chained,1,10,0.1\n512,0,Fused,5,10,0.5\n512,4000,OpByOp,2,10,0.2\n512,4000,Chained,5,10,0.5\n512,4000,Fused,9,10,0.9\n' >fig6-sim.csv
	printf 'delay_us,mode,single_cps,multi_cps,ratio\n0,OpByOp,300,500,0.60\n0,Chained,600,500,1.20\n0,Fused,700,800,0.875\n250,OpByOp,200,300,0.667\n250,Fused,500,510,0.98\n500,OpByOp,150,200,0.75\n' >fig6.csv
	printf 'stages,devices,parallel_p50_us,parallel_p99_us,sequential_p50_us,sequential_p99_us,ratio\n1,1,900,950,900,960,1.00\n16,8,11000,12000,23100,25000,2.10\n' >fig7.csv
	printf 'delay_us,clients,total_cps,median_cps,min_client_cps,max_client_cps,device_util\n330,1,190,189,190,190,0.46\n330,4,150,140,34,44,0.4125\n' >fig8.csv
	printf 'weights,client,weight,completed,share,expected\n1:1:1:1,0,1,46,25.00,25.00\n1:1:1:1,1,1,46,25.00,25.00\n1:1:1:1,2,1,46,25.00,25.00\n1:1:1:1,3,1,46,25.00,25.00\n1:2:4:8,0,1,12,6.90,6.67\n1:2:4:8,1,2,23,13.20,13.33\n1:2:4:8,2,4,46,26.40,26.67\n1:2:4:8,3,8,93,53.40,53.33\n' >fig9.csv
	printf 'hosts,delay_us,mode,single_cps,multi_cps,ratio\n1,0,OpByOp,100,200,0.5\n1,0,Chained,100,100,1.0\n1,0,Fused,100,100,1.0\n1,4000,OpByOp,100,100,0.96\n1,4000,Chained,100,100,1.0\n1,4000,Fused,100,100,1.0\n4,0,OpByOp,10,100,0.1\n4,0,Chained,10,100,0.1\n4,0,Fused,99,100,0.99\n4,4000,OpByOp,10,100,0.1\n4,4000,Chained,98,100,0.98\n4,4000,Fused,99,100,0.99\n' >fig6-hosts.csv
	printf 'devices,tokens_per_step,steps,single_tokens_per_s,multi_tokens_per_s,ratio,single_loss,first_loss\n8,128,128,4000.0,5000.0,0.8000,0.01500,10.61960\n' >table1.csv
	printf 'stages,devices_per_stage,micro_batches,bubble,step_ms,rows_per_s,ideal_rows_per_s,measured_over_ideal,island_crossings\n4,4,16,0.1579,655.0,1600.0,6736.8,0.2375,3\n16,1,16,0.4839,1207.3,1200.0,4129.0,0.2906,15\n' >table2.csv
	cd "$root" || return 1
}

report() { tools/paper-report "$d/in" >"$d/out" 2>&1; }
all_png() {
	local f
	for f in fig5 fig5-hosts fig5-sim fig6 fig6-hosts fig6-sim fig7 fig8 fig9 table1 table2; do
		[[ $(head -c 4 "$d/in/$f.png" | od -An -c | tr -d " ") == "211PNG" ]] || return 1
	done
}
has() { grep -qF -- "$1" "$d/in/REPORT.md"; }
said() { grep -qF -- "$1" "$d/out"; }

echo "TAP version 13"
echo "1..13"
fixture
report
check "a whole set of inputs gives REPORT.md" \
	'[[ -s $d/in/REPORT.md ]] && said "wrote $d/in/REPORT.md"'
check "Figure 5: single/multi of each mode, and each host count over one host" \
	'has "OpByOp 0.75, Chained 1.00, Fused 1.12" &&
	 has "| 2 | 150/s (1.50x) | 300/s | 0.50 | 300/s (1.50x) | 250/s | 1.20 | 800/s (2.00x) | 1000/s | 0.80 |" &&
	 has "on 2 testbed hosts: OpByOp 0.50, Chained 1.20, Fused 0.80" &&
	 ! has "measured below its own"'
check "Figure 6: the first size at parity per mode, or the largest tried" \
	'has "OpByOp not at parity by 500 us, Chained at 0 us, Fused at 250 us" &&
	 has "1 hosts: OpByOp at 4000 us, Chained at 0 us, Fused at 0 us; 4 hosts: OpByOp not by 4000 us, Chained at 4000 us, Fused at 0 us" &&
	 has "| 4 | 4000 us | 0.10 | 0.98 | 0.99 |"'
check "Figures 7, 8, 9: the longest chain, 4 clients of 330 us, the shares" \
	'has "16 stages: sequential 2.10x the parallel p50" &&
	 has "150/s, devices 41% busy" && has "1:2:4:8 gave 6.9/13.2/26.4/53.4%" &&
	 has "largest gap 0.3 points"'
check "simulated hosts: the controller's memory per host and CPU per run" \
	'has "grew by 1.00 MiB per host" && has "went from 73 to 735 us"'
check "simulated hosts: single/multi per host count, and Figure 6 at 16 and 512" \
	'has "| 5 | 320/s, 640/s (0.50) | 1300/s, 2600/s (0.50) | 14000/s, 14000/s (1.00) |" &&
	 has "5 simulated hosts: OpByOp 0.50, Chained 0.50, Fused 1.00" &&
	 has "simulated: 16 hosts: OpByOp at 4000 us, Chained at 4000 us, Fused at 0 us; 512 hosts: OpByOp not by 4000 us, Chained not by 4000 us, Fused not by 4000 us" &&
	 has "| 512 | 4000 us | 0.20 | 0.50 | 0.90 |"'
check "Table 2: each S against the first, and the change over the range" \
	'has "| 16 | 1 | 16 | 48.4% | 1207 ms | 1200 | 4129 | 0.29 | -25.0% | 15 |" &&
	 has "S=4 to S=16 over 4 testbed hosts'"'"' 16 devices: -25.0% rows/s"'
check "Table 1: tokens/s of both, single/multi, the loss it fell to" \
	'has "| 8 | 128 | 128 | 4000 | 5000 | 0.80 | 10.620 to 0.015 |" &&
	 has "a decoder block on 8 devices: single/multi 0.80 in tokens/s"'
check "the setting is named: vCPUs, clock source, module parameters" \
	'has "2 vCPUs with the tsc clock source" && has "ndev=8 mesh=2x4"'
check "pwbench-plot draws a PNG of every figure" \
	'tools/pwbench-plot "$d/in" >"$d/plot" 2>&1 && all_png'
fixture
rm "$d/in/fig7.csv"
check "a missing file fails, named, and no report is written" \
	'! report && said "fig7.csv: No such file" && [[ ! -e $d/in/REPORT.md ]]'
fixture
sed -i 's/device_util/busy/' "$d/in/fig8.csv"
r1=0; report || r1=1
r1_said=$(cat "$d/out")
fixture
sed -i 's/^16,8,11000/16,8,eleven/' "$d/in/fig7.csv"
check "a missing column or a value not a number fails, named" \
	'((r1)) && [[ $r1_said == *"fig8.csv: no column device_util"* ]] &&
	 ! report && said "parallel_p50_us'"'"' is not a number"'
fixture
sed -i 's/^2,Fused,800,790,810,1000$/2,Fused,800,790,810,100/' "$d/in/fig5-hosts.csv"
check "a baseline whose Fused is slower than its Chained is called out" \
	'report && has "Chained (128 commands) on 2 host(s) in this run"'
echo "$passed passed, $failed failed"
((failed == 0))

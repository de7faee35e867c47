# The stop-43 CPU table: ke default (min of the run and a rerun of the rows under 1.1x), eager (same), torch.compile re-timed this stop where it decides fast_1, else stop 37.
# Run from the repository root: python3 bench/cpu/kernelbench-table-stop43.py [table|subset]
import json,math,sys
def pk(p):
    p=p.split('/'); return 'kb_l%s_%s'%(p[0][-1],p[1])
ke={}; bad=[]
import os
for fn in ['bench/cpu/kernelbench-default-stop43-run1.jsonl','bench/cpu/kernelbench-default-stop43-rerun.jsonl']:
  if not os.path.exists(fn): continue
  for l in open(fn):
    try: r=json.loads(l)
    except: continue
    ok=r.get('correct') and r.get('expected') and 'max_abs_err' in r['expected']
    if not ok: bad.append((r.get('kernel'),r.get('error'))); continue
    ke[r['kernel']]=min(r['time_ns']['median']/1e6, ke.get(r['kernel'],1e9))
eager={}; prob={}
for fn in ['bench/cpu/kernelbench-torch215-eager-stop43-run1.jsonl','bench/cpu/kernelbench-torch215-eager-stop43-rerun.jsonl']:
  if not os.path.exists(fn): continue
  for l in open(fn):
    r=json.loads(l); k=pk(r['problem']); eager[k]=min(r['eager_ms'],eager.get(k,1e9)); prob[k]=r['problem']
comp37={}
for l in open('bench/cpu/kernelbench-torch215-stop37.jsonl'):
    r=json.loads(l)
    if r.get('compile_ms'): comp37[pk(r['problem'])]=r['compile_ms']
comp43={}
try:
    for l in open('bench/cpu/kernelbench-torch215-compile-subset-stop43.jsonl'):
        r=json.loads(l)
        if r.get('compile_ms'): comp43[pk(r['problem'])]=r['compile_ms']
except FileNotFoundError: pass
mode=sys.argv[1] if len(sys.argv)>1 else 'table'
g=lambda xs: math.exp(sum(map(math.log,xs))/len(xs))
if mode=='subset':
    for k,t in ke.items():
        e=eager[k]; c=comp37.get(k)
        if e/t>1 and c and 0.77<=c/t<=1.3: print('../shared/kernelbench/%s.mlir'%prob[k])
    sys.exit()
rows=[]
for k,t in ke.items():
    e=eager[k]; c=comp43.get(k, comp37.get(k)); best=min(x for x in (e,c) if x)
    rows.append((best/t,e/t,k,t,e,c,k in comp43))
print('bad',bad)
print('n',len(rows),'compile re-timed',sum(r[6] for r in rows))
print('vs eager geo %.3f fast1 %.2f fast2 %.2f'%(g([r[1] for r in rows]), sum(r[1]>1 for r in rows)/len(rows), sum(r[1]>2 for r in rows)/len(rows)))
print('vs best geo %.3f fast1 %.2f fast2 %.2f'%(g([r[0] for r in rows]), sum(r[0]>1 for r in rows)/len(rows), sum(r[0]>2 for r in rows)/len(rows)))
rows.sort()
for r in rows:
    if r[0]<1.1: print('%.2f %-55s ke %.2f eager %.2f compile %s%s'%(r[0],r[2][:55],r[3],r[4],r[5] and round(r[5],2),' (43)' if r[6] else ''))

import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import *
bad=[]
ops={
 "addcmul": lambda L,a,b: L.addcmul(a,b,a,value=2) , "addcdiv": lambda L,a,b: L.addcdiv(a,a,b.abs()+1 if b.dtype!=L.bool else b,value=0.5) if a.is_floating_point() or a.is_complex() else a,
 "addcmul_": lambda L,a,b: a.clone().addcmul_(b,b,value=-1) if a.dtype!=L.bool else a, "gcd": lambda L,a,b: L.gcd(a,b) if not (a.is_floating_point() or a.is_complex() or a.dtype==L.bool) else a,
 "lcm": lambda L,a,b: L.lcm(a,b) if not (a.is_floating_point() or a.is_complex() or a.dtype==L.bool) else a,
 "heaviside": lambda L,a,b: L.heaviside(a,b) if not a.is_complex() else a, "nextafter": lambda L,a,b: L.nextafter(a,b) if a.is_floating_point() else a,
 "ldexp": lambda L,a,b: L.ldexp(a, (b.abs() % 5).long() if not b.is_complex() else b.real.long()) ,
}
for n,f in ops.items(): bad+=run(n,f,nin=2)
print(len(bad))
for b in bad: print(b)

"""Prints a function of N buffers, each allocated, written and freed at the
end of the one block (as -O0 lowers a long straight-line Mat program), for
free-buffers-early-linear.test."""
import sys

n = int(sys.argv[1])
print("func.func @long(%x: f64) {")
for i in range(n):
    print(f"  %b{i} = memref.alloc() : memref<4xf64>")
    print(f"  linalg.fill ins(%x : f64) outs(%b{i} : memref<4xf64>)")
for i in range(n):
    print(f"  memref.dealloc %b{i} : memref<4xf64>")
print("  return")
print("}")

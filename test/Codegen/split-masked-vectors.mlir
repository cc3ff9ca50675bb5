// RUN: matc-opt %s --matrix-split-masked-vectors --split-input-file | FileCheck %s
// RUN: matc-opt %s --matrix-split-masked-vectors=max-bits=512 --split-input-file | FileCheck %s --check-prefix=WIDE
// RUN: not matc-opt %s --matrix-split-masked-vectors=max-bits=0 --split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: error: matrix-split-masked-vectors: max-bits must be positive, got 0

// A masked read of 16 x f32 (512 bits) becomes two reads of 8 at columns
// %j and %j + 8, each with its half of the mask, inserted into one vector.
// CHECK-LABEL: func.func @read_f32
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf32>, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: vector<16xi1>)
// CHECK-DAG: %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: %[[K0:.*]] = vector.extract_strided_slice %[[K]] {offsets = [0], sizes = [8], strides = [1]}
// CHECK: %[[R0:.*]] = vector.transfer_read %[[M]][%[[I]], %[[J]]], %[[PAD]], %[[K0]] {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
// CHECK: %[[V0:.*]] = vector.insert_strided_slice %[[R0]], %[[ZERO]] {offsets = [0], strides = [1]}
// CHECK: %[[J8:.*]] = arith.addi %[[J]], %[[C8]] : index
// CHECK: %[[K1:.*]] = vector.extract_strided_slice %[[K]] {offsets = [8], sizes = [8], strides = [1]}
// CHECK: %[[R1:.*]] = vector.transfer_read %[[M]][%[[I]], %[[J8]]], %[[PAD]], %[[K1]] {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
// CHECK: %[[V1:.*]] = vector.insert_strided_slice %[[R1]], %[[V0]] {offsets = [8], strides = [1]}
// CHECK: return %[[V1]]
// WIDE-LABEL: func.func @read_f32
// WIDE: vector.transfer_read {{.*}} : memref<?x?xf32>, vector<16xf32>
// WIDE-NOT: vector.transfer_read
func.func @read_f32(%m: memref<?x?xf32>, %i: index, %j: index, %k: vector<16xi1>) -> vector<16xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %j], %pad, %k {in_bounds = [true]} : memref<?x?xf32>, vector<16xf32>
  return %v : vector<16xf32>
}

// -----

// A write that may run out of bounds lowers to a masked store too: four
// writes of 4 x f64, still possibly out of bounds (each gets its own mask
// from the bounds when lowered).
// CHECK-LABEL: func.func @write_out_of_bounds_f64
// CHECK-COUNT-4: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}] : vector<4xf64>, memref<?xf64>
// CHECK-NOT: vector.transfer_write
// WIDE-LABEL: func.func @write_out_of_bounds_f64
// WIDE-COUNT-2: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}] : vector<8xf64>, memref<?xf64>
func.func @write_out_of_bounds_f64(%m: memref<?xf64>, %i: index, %v: vector<16xf64>) {
  vector.transfer_write %v, %m[%i] : vector<16xf64>, memref<?xf64>
  return
}

// -----

// 12 x f32 (384 bits): a piece of 8 and one of 4.
// CHECK-LABEL: func.func @ragged
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [8], strides = [1]} : vector<12xf32> to vector<8xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [8], strides = [1]} : vector<12xi1> to vector<8xi1>
// CHECK: vector.transfer_write {{.*}} : vector<8xf32>, memref<4x12xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [4], strides = [1]} : vector<12xf32> to vector<4xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [4], strides = [1]} : vector<12xi1> to vector<4xi1>
// CHECK: vector.transfer_write {{.*}} : vector<4xf32>, memref<4x12xf32>
func.func @ragged(%m: memref<4x12xf32>, %i: index, %n: index, %v: vector<12xf32>) {
  %c0 = arith.constant 0 : index
  %k = vector.create_mask %n : vector<12xi1>
  vector.transfer_write %v, %m[%i, %c0], %k {in_bounds = [true]} : vector<12xf32>, memref<4x12xf32>
  return
}

// -----

// Left alone: unmasked in-bounds accesses (the main loops), masked ones no
// wider than 256 bits, a read broadcast along a dimension, transfers on
// tensors.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: vector.extract_strided_slice
// CHECK-NOT: vector.insert_strided_slice
// CHECK: return
func.func @untouched(%m: memref<?x?xf32>, %t: tensor<?x?xf32>, %i: index, %k8: vector<8xi1>, %k16: vector<16xi1>) -> (vector<16xf32>, vector<8xf32>, vector<16xf32>, vector<16xf32>) {
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true]} : memref<?x?xf32>, vector<16xf32>
  %b = vector.transfer_read %m[%i, %i], %pad, %k8 {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
  %c = vector.transfer_read %m[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (0)>} : memref<?x?xf32>, vector<16xf32>
  %d = vector.transfer_read %t[%i, %i], %pad, %k16 {in_bounds = [true]} : tensor<?x?xf32>, vector<16xf32>
  return %a, %b, %c, %d : vector<16xf32>, vector<8xf32>, vector<16xf32>, vector<16xf32>
}

// -----

// vector.maskedload and vector.maskedstore: the pass-thru is split with the
// mask.
// CHECK-LABEL: func.func @masked_load_store
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[I:.*]]: index, %[[K:.*]]: vector<16xi1>, %[[P:.*]]: vector<16xf32>)
// CHECK: %[[K0:.*]] = vector.extract_strided_slice %[[K]] {offsets = [0], sizes = [8]
// CHECK: %[[P0:.*]] = vector.extract_strided_slice %[[P]] {offsets = [0], sizes = [8]
// CHECK: vector.maskedload %[[M]][%[[I]]], %[[K0]], %[[P0]] : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: %[[I8:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: vector.maskedload %[[M]][%[[I8]]], {{.*}} into vector<8xf32>
// CHECK-COUNT-2: vector.maskedstore %[[M]][%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<8xi1>, vector<8xf32>
// CHECK-NOT: vector.maskedstore
func.func @masked_load_store(%m: memref<?xf32>, %i: index, %k: vector<16xi1>, %p: vector<16xf32>) {
  %v = vector.maskedload %m[%i], %k, %p : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
  vector.maskedstore %m[%i], %k, %v : memref<?xf32>, vector<16xi1>, vector<16xf32>
  return
}

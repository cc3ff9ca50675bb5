// RUN: matc-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// transform.apply_patterns.matc.unroll_transposes: a transpose of the last
// two dimensions of 32-bit elements, both multiples of `size`, becomes
// square transposes of size x size (here the 32 x 16 of packing B^T into
// 32-wide panels with AVX-512: two 16 x 16 ones, for the shuffle network).
// CHECK-LABEL: func.func @panel_of_b_transposed
// CHECK-SAME: (%[[V:.*]]: vector<1x32x16xf32>)
// CHECK: %[[LO:.*]] = vector.extract_strided_slice %[[V]] {offsets = [0, 0, 0], sizes = [1, 16, 16], strides = [1, 1, 1]}
// CHECK: %[[TLO:.*]] = vector.transpose %[[LO]], [0, 2, 1] : vector<1x16x16xf32> to vector<1x16x16xf32>
// CHECK: %[[R0:.*]] = vector.insert_strided_slice %[[TLO]], %{{.*}} {offsets = [0, 0, 0], strides = [1, 1, 1]} : vector<1x16x16xf32> into vector<1x16x32xf32>
// CHECK: %[[HI:.*]] = vector.extract_strided_slice %[[V]] {offsets = [0, 16, 0], sizes = [1, 16, 16], strides = [1, 1, 1]}
// CHECK: %[[THI:.*]] = vector.transpose %[[HI]], [0, 2, 1] : vector<1x16x16xf32> to vector<1x16x16xf32>
// CHECK: %[[R1:.*]] = vector.insert_strided_slice %[[THI]], %[[R0]] {offsets = [0, 0, 16], strides = [1, 1, 1]} : vector<1x16x16xf32> into vector<1x16x32xf32>
// CHECK: return %[[R1]]
func.func @panel_of_b_transposed(%v: vector<1x32x16xf32>) -> vector<1x16x32xf32> {
  %t = vector.transpose %v, [0, 2, 1] : vector<1x32x16xf32> to vector<1x16x32xf32>
  return %t : vector<1x16x32xf32>
}

// Left alone: already square; a size that is no multiple of 16; 64-bit
// elements; a permutation that moves a leading dimension.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: extract_strided_slice
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<24x16xf32> to vector<16x24xf32>
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<32x16xf64> to vector<16x32xf64>
// CHECK: vector.transpose %{{.*}}, [2, 0, 1] : vector<32x16x1xf32> to vector<1x32x16xf32>
// CHECK-NOT: extract_strided_slice
func.func @left_alone(%a: vector<16x16xf32>, %b: vector<24x16xf32>,
                      %c: vector<32x16xf64>, %d: vector<32x16x1xf32>)
    -> (vector<16x16xf32>, vector<16x24xf32>, vector<16x32xf64>, vector<1x32x16xf32>) {
  %ta = vector.transpose %a, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  %tb = vector.transpose %b, [1, 0] : vector<24x16xf32> to vector<16x24xf32>
  %tc = vector.transpose %c, [1, 0] : vector<32x16xf64> to vector<16x32xf64>
  %td = vector.transpose %d, [2, 0, 1] : vector<32x16x1xf32> to vector<1x32x16xf32>
  return %ta, %tb, %tc, %td : vector<16x16xf32>, vector<16x24xf32>, vector<16x32xf64>, vector<1x32x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.matc.unroll_transposes size = 16
    } : !transform.any_op
    transform.yield
  }
}

// -----

// With AVX2's 8 x 8 pieces: a 16 x 16 transpose becomes four.
// CHECK-LABEL: func.func @avx2_pieces
// CHECK-COUNT-4: vector.transpose %{{.*}}, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK-NOT: vector.transpose
func.func @avx2_pieces(%v: vector<16x16xf32>) -> vector<16x16xf32> {
  %t = vector.transpose %v, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  return %t : vector<16x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.matc.unroll_transposes size = 8
    } : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %root {
      // expected-error @below {{attribute 'size' failed to satisfy constraint}}
      transform.apply_patterns.matc.unroll_transposes size = 0
    } : !transform.any_op
    transform.yield
  }
}

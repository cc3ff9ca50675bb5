// RUN: matc-opt %s --split-input-file --allow-unregistered-dialect --matrix-bound-tile-temporaries | FileCheck %s

// The sizes of the packed tiles are affine.min of the tile size and the rest
// of the matrix: bounded by the tile size (256 rows, 128 / 16 = 8 panels).
// CHECK-LABEL: func.func @tile_of_c
// CHECK: scf.forall
// CHECK: %[[ROWS:.*]] = affine.min
// CHECK: %[[PANELS:.*]] = affine.apply
// CHECK: %[[WHOLE:.*]] = tensor.empty() : tensor<256x8x16xf32>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[WHOLE]][0, 0, 0] [%[[ROWS]], %[[PANELS]], 16] [1, 1, 1]
// CHECK-SAME: tensor<256x8x16xf32> to tensor<?x?x16xf32>
// CHECK: "test.use"(%[[SLICE]])
func.func @tile_of_c(%m: index, %n: index) {
  %tm = affine.apply affine_map<()[s0] -> (s0 ceildiv 256)>()[%m]
  %tn = affine.apply affine_map<()[s0] -> (s0 ceildiv 128)>()[%n]
  scf.forall (%i, %j) in (%tm, %tn) {
    %rows = affine.min affine_map<(d0)[s0] -> (d0 * -256 + s0, 256)>(%i)[%m]
    %cols = affine.min affine_map<(d0)[s0] -> (d0 * -128 + s0, 128)>(%j)[%n]
    %panels = affine.apply affine_map<(d0) -> (d0 ceildiv 16)>(%cols)
    %t = tensor.empty(%rows, %panels) : tensor<?x?x16xf32>
    "test.use"(%t) : (tensor<?x?x16xf32>) -> ()
  }
  return
}

// -----

// A size without a constant upper bound: left alone.
// CHECK-LABEL: func.func @unbounded
// CHECK: tensor.empty(%{{.*}}) : tensor<?x16xf64>
// CHECK-NOT: tensor.extract_slice
func.func @unbounded(%m: index, %n: index) {
  scf.forall (%i) in (%n) {
    %t = tensor.empty(%m) : tensor<?x16xf64>
    "test.use"(%t) : (tensor<?x16xf64>) -> ()
  }
  return
}

// -----

// Bounded, but larger than max-bytes (256 KiB): 1024 x 128 x 4 bytes is
// 512 KiB. Left alone.
// CHECK-LABEL: func.func @too_large
// CHECK: tensor.empty(%{{.*}}) : tensor<?x128xf32>
// CHECK-NOT: tensor.extract_slice
func.func @too_large(%m: index) {
  %t = affine.apply affine_map<()[s0] -> (s0 ceildiv 1024)>()[%m]
  scf.forall (%i) in (%t) {
    %rows = affine.min affine_map<(d0)[s0] -> (d0 * -1024 + s0, 1024)>(%i)[%m]
    %e = tensor.empty(%rows) : tensor<?x128xf32>
    "test.use"(%e) : (tensor<?x128xf32>) -> ()
  }
  return
}

// -----

// Outside an scf.forall (not a tile temporary): left alone.
// CHECK-LABEL: func.func @outside_tiles
// CHECK: tensor.empty(%{{.*}}) : tensor<?xf32>
// CHECK-NOT: tensor.extract_slice
func.func @outside_tiles(%m: index) {
  %rows = affine.min affine_map<()[s0] -> (s0, 64)>()[%m]
  %e = tensor.empty(%rows) : tensor<?xf32>
  "test.use"(%e) : (tensor<?xf32>) -> ()
  return
}

// RUN: gather-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// gather.multiaxis
//===----------------------------------------------------------------------===//

func.func @multiaxis_indices_rank_differs_from_input_rank(%input: tensor<4x3xf32>, %indices: tensor<2xi64>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op indices rank (1) must equal input rank (2)}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return
}

// -----

func.func @multiaxis_axis_not_less_than_rank(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op axis 2 is out of range [0, 2)}}
  %0 = gather.multiaxis %input[%indices] axes = [2] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return
}

// -----

func.func @multiaxis_negative_axis(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op axis -1 is out of range [0, 2)}}
  %0 = gather.multiaxis %input[%indices] axes = [-1] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return
}

// -----

func.func @multiaxis_axis_repeated(%input: tensor<4x3xf32>, %indices: tensor<2x2xi64>, %init_0: tensor<2x1xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op axis 0 appears more than once in axes}}
  %0 = gather.multiaxis %input[%indices] axes = [0, 0] into %init_0 : tensor<4x3xf32>, tensor<2x2xi64> into tensor<2x1xf32>
  return
}

// -----

func.func @multiaxis_last_dim_not_multiple_of_coordinate_size(%input: tensor<4x3xf32>, %indices: tensor<2x3xi64>, %init_0: tensor<2x1xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op last indices dimension (3) must be a multiple of the coordinate size 2 (the number of axes)}}
  %0 = gather.multiaxis %input[%indices] axes = [0, 1] into %init_0 : tensor<4x3xf32>, tensor<2x3xi64> into tensor<2x1xf32>
  return
}

// -----

func.func @multiaxis_non_axis_dims_not_broadcastable(%input: tensor<4x3xf32>, %indices: tensor<2x2xi64>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op non-axis dimension 1: input size 3 and logical indices size 2 are not broadcast-compatible (equal, or one of them 1)}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x2xi64> into tensor<2x3xf32>
  return
}

// -----

// The last dimension is compared after dividing out the coordinate size.
func.func @multiaxis_logical_last_dim_not_broadcastable(%input: tensor<4x3x5xf32>, %indices: tensor<1x1x6xi64>, %init_0: tensor<1x1x5xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op non-axis dimension 2: input size 5 and logical indices size 3 are not broadcast-compatible}}
  %0 = gather.multiaxis %input[%indices] axes = [0, 1] into %init_0 : tensor<4x3x5xf32>, tensor<1x1x6xi64> into tensor<1x1x5xf32>
  return
}

// -----

func.func @multiaxis_init_shape_disagrees(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<2x4xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op init dimension 1 (4) must be 3 (inferred output type 'tensor<2x3xf32>')}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x4xf32>
  return
}

// -----

func.func @multiaxis_init_rank_differs(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<6xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op init rank (1) must be 2 (inferred output type 'tensor<2x3xf32>')}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<6xf32>
  return
}

// -----

func.func @multiaxis_init_element_type_differs(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<2x3xf16>) {
  // expected-error @+1 {{'gather.multiaxis' op init element type 'f16' must equal the input element type 'f32'}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf16>
  return
}

// -----

func.func @multiaxis_float_indices(%input: tensor<4x3xf32>, %indices: tensor<2x1xf32>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op operand #1 must be ranked tensor or memref of signless integer (i8, i16, i32, i64) or index, but got}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xf32> into tensor<2x3xf32>
  return
}

// -----

func.func @multiaxis_i1_indices(%input: tensor<4x3xf32>, %indices: tensor<2x1xi1>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op operand #1 must be ranked tensor or memref of signless integer (i8, i16, i32, i64) or index, but got}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<4x3xf32>, tensor<2x1xi1> into tensor<2x3xf32>
  return
}

// -----

func.func @multiaxis_unranked_input(%input: tensor<*xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op operand #0 must be ranked tensor or memref of signless integer, float or index, but got 'tensor<*xf32>'}}
  %0 = gather.multiaxis %input[%indices] axes = [0] into %init_0 : tensor<*xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return
}

// -----

func.func @multiaxis_constant_index_out_of_bounds(%init_0: tensor<2x1xf32>) {
  %input = arith.constant dense<1.0> : tensor<4x3xf32>
  %indices = arith.constant dense<[[0, 1], [3, 3]]> : tensor<2x2xi64>
  // Component 1 of the second coordinate addresses axis 1 (size 3).
  // expected-error @+1 {{'gather.multiaxis' op index 3 at indices position [1, 1] is out of bounds for 'tensor<4x3xf32>' dimension 1 of size 3}}
  %0 = gather.multiaxis %input[%indices] axes = [0, 1] into %init_0 : tensor<4x3xf32>, tensor<2x2xi64> into tensor<2x1xf32>
  return
}

// -----

func.func @multiaxis_constant_negative_index_when_negatives_are_out_of_bounds(%init_0: tensor<2x3xf32>) {
  %input = arith.constant dense<1.0> : tensor<4x3xf32>
  %indices = arith.constant dense<[[-1], [2]]> : tensor<2x1xi32>
  // expected-error @+1 {{'gather.multiaxis' op index -1 at indices position [0, 0] is out of bounds for 'tensor<4x3xf32>' dimension 0 of size 4 (negative_indices = out_of_bounds)}}
  %0 = gather.multiaxis %input[%indices] axes = [0] negative_indices = out_of_bounds into %init_0 : tensor<4x3xf32>, tensor<2x1xi32> into tensor<2x3xf32>
  return
}

// -----

func.func @multiaxis_unknown_policy(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<2x3xf32>) {
  // expected-error @+2 {{custom op 'gather.multiaxis' expected ::mlir::gather::OutOfBoundsMode to be one of: error, clamp, fill, unchecked}}
  // expected-error @+1 {{failed to parse Gather_OutOfBoundsModeAttr parameter 'value'}}
  %0 = gather.multiaxis %input[%indices] axes = [0] out_of_bounds = wrap into %init_0 : tensor<4x3xf32>, tensor<2x1xi64> into tensor<2x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// gather.block
//===----------------------------------------------------------------------===//

func.func @block_data_rank_zero(%data: tensor<f32>, %indices: tensor<2xi64>, %init_0: tensor<2xf32>) {
  // expected-error @+1 {{'gather.block' op data must have rank >= 1, got rank 0}}
  %0 = gather.block %data[%indices] axis = 0 into %init_0 : tensor<f32>, tensor<2xi64> into tensor<2xf32>
  return
}

// -----

func.func @block_axis_not_less_than_rank(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %init_0: tensor<4x2xf32>) {
  // expected-error @+1 {{'gather.block' op axis 2 is out of range [-2, 1] for data rank 2}}
  %0 = gather.block %data[%indices] axis = 2 into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<4x2xf32>
  return
}

// -----

func.func @block_axis_below_negative_rank(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %init_0: tensor<4x2xf32>) {
  // expected-error @+1 {{'gather.block' op axis -3 is out of range [-2, 1] for data rank 2}}
  %0 = gather.block %data[%indices] axis = -3 into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<4x2xf32>
  return
}

// -----

func.func @block_init_shape_disagrees(%data: tensor<4x3xf32>, %indices: tensor<5xi64>, %init_0: tensor<5x3xf32>) {
  // expected-error @+1 {{'gather.block' op init dimension 0 (5) must be 4 (inferred output type 'tensor<4x5xf32>')}}
  %0 = gather.block %data[%indices] axis = 1 into %init_0 : tensor<4x3xf32>, tensor<5xi64> into tensor<5x3xf32>
  return
}

// -----

func.func @block_constant_index_out_of_bounds(%data: tensor<4x3xf32>, %init_0: tensor<2x3xf32>) {
  %indices = arith.constant dense<[0, 4]> : tensor<2xi64>
  // expected-error @+1 {{'gather.block' op index 4 at indices position [1] is out of bounds for 'tensor<4x3xf32>' dimension 0 of size 4}}
  %0 = gather.block %data[%indices] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return
}

// -----

func.func @block_constant_negative_index_beyond_wrap(%data: tensor<4x3xf32>, %init_0: tensor<4xf32>) {
  %indices = arith.constant dense<-4> : tensor<i32>
  // -3 wraps to 0; -4 is below -size.
  // expected-error @+1 {{'gather.block' op index -4 (every indices element) is out of bounds for 'tensor<4x3xf32>' dimension 1 of size 3}}
  %0 = gather.block %data[%indices] axis = -1 into %init_0 : tensor<4x3xf32>, tensor<i32> into tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// gather.elements
//===----------------------------------------------------------------------===//

func.func @elements_data_rank_zero(%data: tensor<f32>, %indices: tensor<i64>, %init_0: tensor<f32>) {
  // expected-error @+1 {{'gather.elements' op data must have rank >= 1, got rank 0}}
  %0 = gather.elements %data[%indices] axis = 0 into %init_0 : tensor<f32>, tensor<i64> into tensor<f32>
  return
}

// -----

func.func @elements_indices_rank_differs_from_data_rank(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %init_0: tensor<2xf32>) {
  // expected-error @+1 {{'gather.elements' op indices rank (1) must equal data rank (2)}}
  %0 = gather.elements %data[%indices] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<2xi64> into tensor<2xf32>
  return
}

// -----

func.func @elements_axis_not_less_than_rank(%data: tensor<4x3xf32>, %indices: tensor<2x3xi64>, %init_0: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.elements' op axis 2 is out of range [-2, 1] for data rank 2}}
  %0 = gather.elements %data[%indices] axis = 2 into %init_0 : tensor<4x3xf32>, tensor<2x3xi64> into tensor<2x3xf32>
  return
}

// -----

func.func @elements_indices_dim_exceeds_data_dim(%data: tensor<4x3xf32>, %indices: tensor<2x5xi64>, %init_0: tensor<2x5xf32>) {
  // expected-error @+1 {{'gather.elements' op indices dimension 1 (5) must not exceed data dimension 1 (3) off the gather axis 0}}
  %0 = gather.elements %data[%indices] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<2x5xi64> into tensor<2x5xf32>
  return
}

// -----

func.func @elements_init_shape_disagrees(%data: tensor<4x3xf32>, %indices: tensor<2x3xi64>, %init_0: tensor<4x3xf32>) {
  // expected-error @+1 {{'gather.elements' op init dimension 0 (4) must be 2 (inferred output type 'tensor<2x3xf32>')}}
  %0 = gather.elements %data[%indices] axis = 0 into %init_0 : tensor<4x3xf32>, tensor<2x3xi64> into tensor<4x3xf32>
  return
}

// -----

func.func @elements_constant_index_out_of_bounds(%data: tensor<4x3xf32>, %init_0: tensor<2x3xf32>) {
  %indices = arith.constant dense<[[0, 1, 2], [2, 3, 1]]> : tensor<2x3xi8>
  // expected-error @+1 {{'gather.elements' op index 3 at indices position [1, 1] is out of bounds for 'tensor<4x3xf32>' dimension 1 of size 3}}
  %0 = gather.elements %data[%indices] axis = 1 into %init_0 : tensor<4x3xf32>, tensor<2x3xi8> into tensor<2x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// gather.nd
//===----------------------------------------------------------------------===//

func.func @nd_data_rank_zero(%data: tensor<f32>, %indices: tensor<2x1xi64>, %init_0: tensor<2xf32>) {
  // expected-error @+1 {{'gather.nd' op data must have rank >= 1, got rank 0}}
  %0 = gather.nd %data[%indices] into %init_0 : tensor<f32>, tensor<2x1xi64> into tensor<2xf32>
  return
}

// -----

func.func @nd_indices_rank_zero(%data: tensor<4xf32>, %indices: tensor<i64>, %init_0: tensor<f32>) {
  // expected-error @+1 {{'gather.nd' op indices must have rank >= 1, got rank 0}}
  %0 = gather.nd %data[%indices] into %init_0 : tensor<4xf32>, tensor<i64> into tensor<f32>
  return
}

// -----

func.func @nd_batch_dims_negative(%data: tensor<4x3xf32>, %indices: tensor<4x1xi64>, %init_0: tensor<4xf32>) {
  // expected-error @+1 {{'gather.nd' op batch_dims (-1) must be non-negative}}
  %0 = gather.nd %data[%indices] batch_dims = -1 into %init_0 : tensor<4x3xf32>, tensor<4x1xi64> into tensor<4xf32>
  return
}

// -----

func.func @nd_batch_dims_not_less_than_rank(%data: tensor<4x3xf32>, %indices: tensor<4x2xi64>, %init_0: tensor<4xf32>) {
  // expected-error @+1 {{'gather.nd' op batch_dims (2) must be less than min(indices rank, data rank) = 2}}
  %0 = gather.nd %data[%indices] batch_dims = 2 into %init_0 : tensor<4x3xf32>, tensor<4x2xi64> into tensor<4xf32>
  return
}

// -----

func.func @nd_coordinate_size_dynamic(%data: tensor<4x3xf32>, %indices: tensor<5x?xi64>, %init_0: tensor<5xf32>) {
  // expected-error @+1 {{'gather.nd' op last indices dimension (the coordinate size) must be static, got ?}}
  %0 = gather.nd %data[%indices] into %init_0 : tensor<4x3xf32>, tensor<5x?xi64> into tensor<5xf32>
  return
}

// -----

func.func @nd_coordinate_size_zero(%data: tensor<4x3xf32>, %indices: tensor<5x0xi64>, %init_0: tensor<5x4x3xf32>) {
  // expected-error @+1 {{'gather.nd' op coordinate size (last indices dimension = 0) must be in [1, data rank - batch_dims] = [1, 2]}}
  %0 = gather.nd %data[%indices] into %init_0 : tensor<4x3xf32>, tensor<5x0xi64> into tensor<5x4x3xf32>
  return
}

// -----

func.func @nd_coordinate_size_exceeds_unbatched_rank(%data: tensor<2x4x3xf32>, %indices: tensor<2x3xi64>, %init_0: tensor<2xf32>) {
  // expected-error @+1 {{'gather.nd' op coordinate size (last indices dimension = 3) must be in [1, data rank - batch_dims] = [1, 2]}}
  %0 = gather.nd %data[%indices] batch_dims = 1 into %init_0 : tensor<2x4x3xf32>, tensor<2x3xi64> into tensor<2xf32>
  return
}

// -----

func.func @nd_batch_dim_sizes_differ(%data: tensor<3x4x5xf32>, %indices: tensor<2x1xi64>, %init_0: tensor<2x5xf32>) {
  // expected-error @+1 {{'gather.nd' op batch dimension 0: data size 3 must equal indices size 2 (or be 1)}}
  %0 = gather.nd %data[%indices] batch_dims = 1 into %init_0 : tensor<3x4x5xf32>, tensor<2x1xi64> into tensor<2x5xf32>
  return
}

// -----

func.func @nd_init_shape_disagrees(%data: tensor<2x2x2xf32>, %indices: tensor<2x2xi64>, %init_0: tensor<2x2x2xf32>) {
  // expected-error @+1 {{'gather.nd' op init rank (3) must be 2 (inferred output type 'tensor<2x2xf32>')}}
  %0 = gather.nd %data[%indices] into %init_0 : tensor<2x2x2xf32>, tensor<2x2xi64> into tensor<2x2x2xf32>
  return
}

// -----

func.func @nd_constant_index_out_of_bounds(%data: tensor<2x4x3xf32>, %init_0: tensor<2x1xf32>) {
  %indices = arith.constant dense<[[[1, 2]], [[0, 3]]]> : tensor<2x1x2xi64>
  // batch_dims = 1: component 1 of a tuple addresses data dimension 2.
  // expected-error @+1 {{'gather.nd' op index 3 at indices position [1, 0, 1] is out of bounds for 'tensor<2x4x3xf32>' dimension 2 of size 3}}
  %0 = gather.nd %data[%indices] batch_dims = 1 into %init_0 : tensor<2x4x3xf32>, tensor<2x1x2xi64> into tensor<2x1xf32>
  return
}

// -----

// Destination-passing style: the operands are all tensors or all buffers.
func.func @block_tensor_operands_memref_init(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %init: memref<2x3xf32>) {
  // expected-error @+1 {{'gather.block' op operands must be all tensors or all memrefs, got data 'tensor<4x3xf32>', indices 'tensor<2xi64>' and init 'memref<2x3xf32>'}}
  gather.block %data[%indices] axis = 0 into %init : tensor<4x3xf32>, tensor<2xi64> into memref<2x3xf32>
  return
}

// -----

func.func @multiaxis_memref_input_tensor_indices(%input: memref<4x3xf32>, %indices: tensor<2x1xi64>, %init: memref<2x3xf32>) {
  // expected-error @+1 {{'gather.multiaxis' op operands must be all tensors or all memrefs, got input 'memref<4x3xf32>', indices 'tensor<2x1xi64>' and init 'memref<2x3xf32>'}}
  gather.multiaxis %input[%indices] axes = [0] into %init : memref<4x3xf32>, tensor<2x1xi64> into memref<2x3xf32>
  return
}

// -----

// On buffers the shape rules are the same.
func.func @elements_memref_init_shape_disagrees(%data: memref<4x3xf32>, %indices: memref<2x3xi64>, %init: memref<3x3xf32>) {
  // expected-error @+1 {{'gather.elements' op init dimension 0 (3) must be 2 (inferred output type 'tensor<2x3xf32>')}}
  gather.elements %data[%indices] axis = 0 into %init : memref<4x3xf32>, memref<2x3xi64> into memref<3x3xf32>
  return
}

// -----

// A gather on buffers has no result.
func.func @nd_memref_with_result(%data: memref<4x3xf32>, %indices: memref<2x1xi64>, %init: memref<2x3xf32>) {
  // expected-error @+1 {{'gather.nd' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %0 = "gather.nd"(%data, %indices, %init) <{batch_dims = 0 : i64, negative_indices = #gather<negative_indices wrap>, out_of_bounds = #gather<out_of_bounds error>}> : (memref<4x3xf32>, memref<2x1xi64>, memref<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// A gather on tensors returns the new value of its destination.
func.func @block_tensor_without_result(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %init: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.block' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  "gather.block"(%data, %indices, %init) <{axis = 0 : i64, negative_indices = #gather<negative_indices wrap>, out_of_bounds = #gather<out_of_bounds error>}> : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> ()
  return
}

// -----

// 2^62 f32 elements are 2^64 bytes: byte offsets would overflow 64 bits.
func.func @elements_data_byte_size_overflows(%data: tensor<1x4611686018427387904xf32>, %indices: tensor<1x4xi64>, %init: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'gather.elements' op data type 'tensor<1x4611686018427387904xf32>' is larger than 2^63 bytes}}
  %0 = gather.elements %data[%indices] axis = 1 into %init : tensor<1x4611686018427387904xf32>, tensor<1x4xi64> into tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @block_indices_byte_size_overflows(%data: tensor<4x3xf32>, %indices: tensor<2305843009213693952x4xi64>, %init: tensor<2305843009213693952x4x3xf32>) -> tensor<2305843009213693952x4x3xf32> {
  // expected-error @+1 {{'gather.block' op indices type 'tensor<2305843009213693952x4xi64>' is larger than 2^63 bytes}}
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<4x3xf32>, tensor<2305843009213693952x4xi64> into tensor<2305843009213693952x4x3xf32>
  return %0 : tensor<2305843009213693952x4x3xf32>
}

// -----

// The data fits (2^62 bytes), the output of 8 of its rows does not.
func.func @block_init_byte_size_overflows(%data: memref<4x1152921504606846976xi8>, %indices: memref<8xi64>, %init: memref<8x1152921504606846976xi8>) {
  // expected-error @+1 {{'gather.block' op init type 'memref<8x1152921504606846976xi8>' is larger than 2^63 bytes}}
  gather.block %data[%indices] axis = 0 into %init : memref<4x1152921504606846976xi8>, memref<8xi64> into memref<8x1152921504606846976xi8>
  return
}

// -----

// The lowerings select and zero-fill with arith ops: signed, unsigned and
// complex elements are rejected by the operand constraint.
func.func @block_unsigned_data_element(%data: tensor<4x3xui32>, %indices: tensor<2xi64>, %init: tensor<2x3xui32>) -> tensor<2x3xui32> {
  // expected-error @+1 {{'gather.block' op operand #0 must be ranked tensor or memref of signless integer, float or index, but got 'tensor<4x3xui32>'}}
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<4x3xui32>, tensor<2xi64> into tensor<2x3xui32>
  return %0 : tensor<2x3xui32>
}

// -----

func.func @nd_complex_data_element(%data: memref<4x3xcomplex<f32>>, %indices: memref<2x1xi64>, %init: memref<2x3xcomplex<f32>>) {
  // expected-error @+1 {{'gather.nd' op operand #0 must be ranked tensor or memref of signless integer, float or index, but got 'memref<4x3xcomplex<f32>>'}}
  gather.nd %data[%indices] batch_dims = 0 into %init : memref<4x3xcomplex<f32>>, memref<2x1xi64> into memref<2x3xcomplex<f32>>
  return
}

// -----

func.func @multiaxis_vector_init_element(%input: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %init: tensor<2x3xvector<2xf32>>) -> tensor<2x3xvector<2xf32>> {
  // expected-error @+1 {{'gather.multiaxis' op operand #2 must be ranked tensor or memref of signless integer, float or index, but got 'tensor<2x3xvector<2xf32>>'}}
  %0 = "gather.multiaxis"(%input, %indices, %init) <{axes = array<i64: 0>, negative_indices = #gather<negative_indices wrap>, out_of_bounds = #gather<out_of_bounds error>}> : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xvector<2xf32>>) -> tensor<2x3xvector<2xf32>>
  return %0 : tensor<2x3xvector<2xf32>>
}

// -----

// Every operand fits in 2^63 bytes, but the block gather's output (the
// indices' 2^62 positions times the 5-byte rows) does not: the rewrites
// would write that type.
func.func @block_inferred_output_larger_than_address_space(%data: tensor<4x5xi8>, %indices: tensor<4611686018427387904xi8>, %init: tensor<?x?xi8>) -> tensor<?x?xi8> {
  // expected-error @+1 {{'gather.block' op inferred output type 'tensor<4611686018427387904x5xi8>' is larger than 2^63 bytes}}
  %0 = gather.block %data[%indices] axis = 0 into %init : tensor<4x5xi8>, tensor<4611686018427387904xi8> into tensor<?x?xi8>
  return %0 : tensor<?x?xi8>
}

// -----

// A broadcast multiplies the sizes too.
func.func @multiaxis_broadcast_output_larger_than_address_space(%input: tensor<1x4611686018427387904xi8>, %indices: tensor<4x1xi64>, %init: tensor<?x?xi8>) -> tensor<?x?xi8> {
  // expected-error @+1 {{'gather.multiaxis' op inferred output type 'tensor<4x4611686018427387904xi8>' is larger than 2^63 bytes}}
  %0 = gather.multiaxis %input[%indices] axes = [] into %init : tensor<1x4611686018427387904xi8>, tensor<4x1xi64> into tensor<?x?xi8>
  return %0 : tensor<?x?xi8>
}

//===----------------------------------------------------------------------===//
// gather.check_shape, gather.check_indices
//===----------------------------------------------------------------------===//

// -----

func.func @check_shape_kind_not_a_shape_kind(%ok: i1, %a: index) {
  // expected-error @+1 {{'gather.check_shape' op kind 1 is not a shape error kind}}
  gather.check_shape %ok, index_out_of_bounds dim = 0 sizes(%a, %a) for "gather.block"
  return
}

// -----

// The register length is checked by gather-vector-length-guard, not by
// gather.check_shape.
func.func @check_shape_kind_vector_length(%ok: i1, %a: index) {
  // expected-error @+1 {{'gather.check_shape' op kind 6 is not a shape error kind}}
  gather.check_shape %ok, vector_length_too_short dim = 0 sizes(%a, %a) for "gather.block"
  return
}

// -----

// A failed cf.assert is reported by convert-gather-checks-to-runtime's
// lowering of the assert, not by gather.check_shape.
func.func @check_shape_kind_assertion_failed(%ok: i1, %a: index) {
  // expected-error @+1 {{'gather.check_shape' op kind 7 is not a shape error kind}}
  gather.check_shape %ok, assertion_failed dim = 0 sizes(%a, %a) for "gather.block"
  return
}

// -----

func.func @check_shape_unknown_kind(%ok: i1, %a: index) {
  // expected-error @+1 {{unknown run-time error kind 'too_large'}}
  gather.check_shape %ok, too_large dim = 0 sizes(%a, %a) for "gather.block"
  return
}

// -----

func.func @check_shape_negative_dim(%ok: i1, %a: index) {
  // expected-error @+1 {{'gather.check_shape' op dim -1 is negative}}
  gather.check_shape %ok, shape_mismatch dim = -1 sizes(%a, %a) for "gather.block"
  return
}

// -----

func.func @check_indices_no_dims(%i: memref<?xi64>, %a: index) {
  // expected-error @+1 {{'gather.check_indices' op dims must name at least one dimension}}
  gather.check_indices %i sizes() dims = [] shape(%a) for "gather.block" : memref<?xi64>
  return
}

// -----

func.func @check_indices_sizes_differ_from_dims(%i: memref<?xi64>, %a: index) {
  // expected-error @+1 {{'gather.check_indices' op has 1 sizes for 2 dims}}
  gather.check_indices %i sizes(%a) dims = [0, 1] shape(%a) for "gather.nd" : memref<?xi64>
  return
}

// -----

func.func @check_indices_negative_dim(%i: memref<?xi64>, %a: index) {
  // expected-error @+1 {{'gather.check_indices' op dim -2 is negative}}
  gather.check_indices %i sizes(%a) dims = [-2] shape(%a) for "gather.block" : memref<?xi64>
  return
}

//===----------------------------------------------------------------------===//
// #gather.origin
//===----------------------------------------------------------------------===//

// -----

func.func @origin_names_no_op(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{origin names no op}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origin = #gather.origin<"", dims = [0], indices = [], indices_dims = []>} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @origin_indices_dims_differ_from_indices_rank(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{origin has 1 indices_dims for indices of rank 2}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [1x1], indices_dims = [0]>} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @origin_negative_dim(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{origin dim -1 is negative}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origin = #gather.origin<"gather.block", dims = [-1], indices = [], indices_dims = []>} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @origin_indices_dims_entry_less_than_minus_one(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{origin indices_dims entry -2 is less than -1}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [1], indices_dims = [-2]>} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @origin_not_on_multiaxis(%t: tensor<4x8xf32>, %j: tensor<1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'gather.origin' is only valid on gather.multiaxis}}
  %0 = gather.block %t[%j] axis = 0 into %init {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [1], indices_dims = [0]>} : tensor<4x8xf32>, tensor<1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @origin_not_an_origin(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'gather.origin' must be #gather.origin}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origin = "gather.block"} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @origin_dims_differ_from_axes(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'gather.origin' has 2 dims for 1 axes}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origin = #gather.origin<"gather.nd", dims = [0, 1], indices = [], indices_dims = []>} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @origin_indices_dims_entry_not_less_than_rank(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'gather.origin' indices_dims entry 2 is out of range [-1, 2)}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origin = #gather.origin<"gather.block", dims = [0], indices = [1], indices_dims = [2]>} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

func.func @unknown_gather_attribute(%t: tensor<4x8xf32>, %j: tensor<1x1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{unknown gather dialect attribute gather.origins}}
  %0 = gather.multiaxis %t[%j] axes = [0] into %init {gather.origins = 1} : tensor<4x8xf32>, tensor<1x1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

//===----------------------------------------------------------------------===//
// gather.site_arguments
//===----------------------------------------------------------------------===//

// -----

func.func @site_arguments_not_on_function(%t: tensor<4x8xf32>, %j: tensor<1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'gather.site_arguments' is only valid on a function}}
  %0 = gather.block %t[%j] axis = 0 into %init {gather.site_arguments} : tensor<4x8xf32>, tensor<1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// expected-error @+1 {{'gather.site_arguments' needs the last two arguments (line, column) to be i64}}
func.func private @site_arguments_without_two_arguments(%line: i64) attributes {gather.site_arguments} {
  return
}

// -----

// expected-error @+1 {{'gather.site_arguments' needs the last two arguments (line, column) to be i64}}
func.func private @site_arguments_not_i64(%line: i64, %column: i32) attributes {gather.site_arguments} {
  return
}

//===----------------------------------------------------------------------===//
// gather.leaves_call
//===----------------------------------------------------------------------===//

// -----

func.func @leaves_call_not_on_function(%t: tensor<4x8xf32>, %j: tensor<1xi64>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'gather.leaves_call' is only valid on a function}}
  %0 = gather.block %t[%j] axis = 0 into %init {gather.leaves_call} : tensor<4x8xf32>, tensor<1xi64> into tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// expected-error @+1 {{'gather.leaves_call' must be a unit attribute}}
func.func private @leaves_call_not_unit() attributes {gather.leaves_call = 1 : i64}

//===----------------------------------------------------------------------===//
// gather.streaming_stores
//===----------------------------------------------------------------------===//

// -----

func.func @streaming_stores_not_on_forall(%m: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'gather.streaming_stores' is only valid on an scf.forall}}
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %v, %m[%i] : memref<64xf32>
  } {gather.streaming_stores = 4096 : i64}
  return
}

// -----

func.func @streaming_stores_not_positive(%m: memref<64xf32>, %v: f32) {
  // expected-error @+1 {{'gather.streaming_stores' must be a positive i64 (the output's minimum bytes)}}
  scf.forall (%i) in (64) {
    memref.store %v, %m[%i] : memref<64xf32>
  } {gather.streaming_stores = 0 : i64}
  return
}

// -----

func.func @streaming_stores_not_i64(%m: memref<64xf32>, %v: f32) {
  // expected-error @+1 {{'gather.streaming_stores' must be a positive i64 (the output's minimum bytes)}}
  scf.forall (%i) in (64) {
    memref.store %v, %m[%i] : memref<64xf32>
  } {gather.streaming_stores}
  return
}

// -----

func.func @streaming_row_bytes_without_streaming_stores(%m: memref<64xf32>, %v: f32) {
  // expected-error @+1 {{'gather.streaming_row_bytes' needs 'gather.streaming_stores' on the same loop}}
  scf.forall (%i) in (64) {
    memref.store %v, %m[%i] : memref<64xf32>
  } {gather.streaming_row_bytes = 64 : i64}
  return
}

// -----

func.func @streaming_row_bytes_not_power_of_two(%m: memref<64xf32>, %v: f32) {
  // expected-error @+1 {{'gather.streaming_row_bytes' must be a power-of-two i64 (the bytes the rows are a multiple of)}}
  scf.forall (%i) in (64) {
    memref.store %v, %m[%i] : memref<64xf32>
  } {gather.streaming_row_bytes = 48 : i64, gather.streaming_stores = 4096 : i64}
  return
}

//===----------------------------------------------------------------------===//
// gather.error_flag
//===----------------------------------------------------------------------===//

// -----

func.func @error_flag_not_on_memcpy(%m: memref<i32>) {
  // expected-error @+1 {{'gather.error_flag' is only valid on a gpu.memcpy}}
  %v = memref.load %m[] {gather.error_flag} : memref<i32>
  return
}

// -----

func.func @error_flag_not_unit(%h: memref<i32>, %d: memref<i32>) {
  // expected-error @+1 {{'gather.error_flag' must be a unit attribute}}
  gpu.memcpy %h, %d : memref<i32>, memref<i32> {gather.error_flag = 1 : i32}
  return
}

// -----

// A tile's whole indices are of the same kind as its other operands.
func.func @whole_indices_not_tensor(%data: tensor<4x3xf32>, %indices: tensor<2xi64>, %whole: memref<8xi64>) -> tensor<2x3xf32> {
  %init = tensor.empty() : tensor<2x3xf32>
  // expected-error @+1 {{'gather.block' op whole_indices type 'memref<8xi64>' must be a tensor like the other operands}}
  %0 = gather.block %data[%indices] axis = 0 whole_indices(%whole : memref<8xi64>) into %init : tensor<4x3xf32>, tensor<2xi64> into tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @whole_indices_not_memref(%data: memref<4x3xf32>, %indices: memref<2xi64>, %whole: tensor<8xi64>, %init: memref<2x3xf32>) {
  // expected-error @+1 {{'gather.elements' op whole_indices type 'tensor<8xi64>' must be a memref like the other operands}}
  gather.elements %data[%indices] axis = 0 whole_indices(%whole : tensor<8xi64>) into %init : memref<4x3xf32>, memref<2xi64> into memref<2x3xf32>
  return
}

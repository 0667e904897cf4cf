// gather.multiaxis, the Gather Multiaxis proposal: input [4,2,1,2] and indices [1,3,2,2] broadcast
// to [4,_,2,2] off the axis; axis 1 takes the indices size 3.
// A second op gathers (n, c) pairs from an NHWC tensor: axes [0, 3], two
// coordinates folded into the last indices dimension (32 = 16 pairs x 2).
func.func @multiaxis(%input: tensor<4x2x1x2xf32>, %indices: tensor<1x3x2x2xi32>,
                     %nhwc: tensor<32x56x56x64xf32>, %pairs: tensor<8x1x1x32xi64>)
    -> (tensor<4x3x2x2xf32>, tensor<8x56x56x16xf32>) {
  %init0 = tensor.empty() : tensor<4x3x2x2xf32>
  %0 = gather.multiaxis %input[%indices] axes = [1] into %init0
      : tensor<4x2x1x2xf32>, tensor<1x3x2x2xi32> into tensor<4x3x2x2xf32>
  %init1 = tensor.empty() : tensor<8x56x56x16xf32>
  %1 = gather.multiaxis %nhwc[%pairs] axes = [0, 3] out_of_bounds = clamp into %init1
      : tensor<32x56x56x64xf32>, tensor<8x1x1x32xi64> into tensor<8x56x56x16xf32>
  return %0, %1 : tensor<4x3x2x2xf32>, tensor<8x56x56x16xf32>
}

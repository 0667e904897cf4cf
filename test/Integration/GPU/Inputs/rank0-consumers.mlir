// Consumers of 0-d gathers: the loop-free load, add and store become a
// one-thread kernel of their own (gather-map-to-gpu). The fuzzer's finds:
// indices as an argument, the empty-axes multiaxis under `fill`, constant
// indices, which fold the gather to a load from a view of the data, and
// constant data and indices, which fold it to a load of a constant global.
func.func @nd_scalar(%data: tensor<3xf64>, %indices: tensor<1xi32>) -> tensor<f64> {
  %init = tensor.empty() : tensor<f64>
  %0 = gather.nd %data[%indices] batch_dims = 0 into %init : tensor<3xf64>, tensor<1xi32> into tensor<f64>
  %out = tensor.empty() : tensor<f64>
  %1 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%0 : tensor<f64>) outs(%out : tensor<f64>) {
  ^bb0(%x: f64, %o: f64):
    %y = arith.addf %x, %x : f64
    linalg.yield %y : f64
  } -> tensor<f64>
  return %1 : tensor<f64>
}

func.func @multiaxis_no_axes_fill(%data: tensor<i16>, %indices: tensor<i64>) -> tensor<i16> {
  %init = tensor.empty() : tensor<i16>
  %0 = gather.multiaxis %data[%indices] axes = [] out_of_bounds = fill into %init : tensor<i16>, tensor<i64> into tensor<i16>
  %out = tensor.empty() : tensor<i16>
  %1 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%0 : tensor<i16>) outs(%out : tensor<i16>) {
  ^bb0(%x: i16, %o: i16):
    %y = arith.addi %x, %x : i16
    linalg.yield %y : i16
  } -> tensor<i16>
  return %1 : tensor<i16>
}

func.func @nd_constant_indices(%data: tensor<3x1x4xi8>) -> tensor<i8> {
  %indices = arith.constant dense<[0, 0, 2]> : tensor<3xi32>
  %init = tensor.empty() : tensor<i8>
  %0 = gather.nd %data[%indices] batch_dims = 0 into %init : tensor<3x1x4xi8>, tensor<3xi32> into tensor<i8>
  %out = tensor.empty() : tensor<i8>
  %1 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%0 : tensor<i8>) outs(%out : tensor<i8>) {
  ^bb0(%x: i8, %o: i8):
    %y = arith.addi %x, %x : i8
    linalg.yield %y : i8
  } -> tensor<i8>
  return %1 : tensor<i8>
}

func.func @multiaxis_constant(%init2: tensor<f32>) -> tensor<f32> {
  %data = arith.constant dense<-7.0> : tensor<f32>
  %indices = arith.constant dense<0> : tensor<index>
  %init = tensor.empty() : tensor<f32>
  %0 = gather.multiaxis %data[%indices] axes = [] out_of_bounds = unchecked into %init : tensor<f32>, tensor<index> into tensor<f32>
  %1 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%0 : tensor<f32>) outs(%init2 : tensor<f32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<f32>
  return %1 : tensor<f32>
}

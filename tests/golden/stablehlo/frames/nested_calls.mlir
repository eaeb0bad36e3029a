module @m {
  func.func public @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.sine %arg0 : tensor<3xf32> loc(#l1)
    %1 = func.call @g(%0) : (tensor<3xf32>) -> tensor<3xf32> loc(#l2)
    %2 = func.call @f(%1) : (tensor<3xf32>) -> tensor<3xf32> loc(#l2)
    return %2 : tensor<3xf32>
  }
  func.func private @f(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<3xf32> loc(#l3)
    %1 = func.call @h(%0) : (tensor<3xf32>) -> tensor<3xf32> loc(#l5)
    return %1 : tensor<3xf32>
  }
  func.func private @g(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.cosine %arg0 : tensor<3xf32> loc(#l4)
    return %0 : tensor<3xf32>
  }
  func.func private @h(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<3xf32> loc(#l6)
    return %0 : tensor<3xf32>
  }
}
#a = loc("a.py":1:1)
#b = loc("a.py":2:1)
#c = loc("a.py":3:1)
#d = loc("a.py":4:1)
#e = loc("a.py":5:1)
#l1 = loc("sin"("m1"(#a)))
#l2 = loc("call"("m2"(#b)))
#l3 = loc("exp"("f3"(#c)))
#l4 = loc("cos"("g4"(#d)))
#l5 = loc("call"("f5"(#e)))
#l6 = loc("tanh"("h6"(#a)))

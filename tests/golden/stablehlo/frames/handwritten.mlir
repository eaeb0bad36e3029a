module @m {
  func.func public @main(%arg0: tensor<3xf32> loc("x")) -> tensor<3xf32> {
    %0 = stablehlo.sine %arg0 : tensor<3xf32> loc(#l1)
    %1 = stablehlo.cosine %0 : tensor<3xf32> loc(#l2)
    %2 = stablehlo.exponential %1 : tensor<3xf32> loc(#l3)
    %3 = stablehlo.negate %2 : tensor<3xf32> loc(#l4)
    %4 = stablehlo.abs %3 : tensor<3xf32> loc(#l5)
    %5 = stablehlo.tanh %4 : tensor<3xf32> loc("plain")
    return %5 : tensor<3xf32>
  }
}
#a = loc("a.py":3:17)
#b = loc("b \"q\".py":4:2 to 6:9)
#c = loc("a.py":7:1 to :5)
#fa = loc("g"(#a))
#fb = loc("h"(#b))
#fc = loc("main"(#c))
#cs = loc(callsite(#fa at #fc))
#cs2 = loc(callsite(#fb at #cs))
#l1 = loc("jit(f)/sin"(#cs))
#l2 = loc("jit(f)/cos"(#cs2))
#l3 = loc("jit(f)/exp"(fused[#fb, #fa]))
#l4 = loc("jit(f)/neg"(fused["nothing", #cs2]))
#l5 = loc("outer"("jit(f)/abs"(#fc)))

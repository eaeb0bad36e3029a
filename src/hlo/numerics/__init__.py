"""The array algorithms the kernels share: XLA:CPU's numerics (rounding, flushing, integer
semantics), bit manipulation, indexing, windows, reductions, sorting, linear algebra and random
bits. Plain functions of NumPy arrays and IR values, written against the KernelContext
interface (numerics.context) where they run called computations; they know no op registry,
plan or text."""

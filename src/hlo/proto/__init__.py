"""XLA's protobuf formats: HloModuleProto, HloProto and HloSnapshot (binary `.pb` and text
`.pbtxt`), read into the same IR as the HLO text XLA prints for them, and written back.

The schema is the project's own subset of XLA's hlo.proto and xla_data.proto (field names and
numbers are XLA's); the generated `*_pb2` modules are committed (tools/make_proto_module.py)."""

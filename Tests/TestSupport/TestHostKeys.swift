// The host keys the known-hosts tests use: two real Ed25519 keys (upstream's ed25519_1 and
// ed25519_2) and one ECDSA P-256 key, with the fingerprints `ssh-keygen -l` gives them.
// A test class that names them conforms to TestHostKeys.
public protocol TestHostKeys {}

public extension TestHostKeys {
    var keyA: String { "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI" }
    var fpA: String { "SHA256:a8pHtsZVzeDtJ6BjvDO+1CHYLpJhljmGfEjYOa7Z7kw" }
    var keyB: String { "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIBp6PVW0z2o9C4Ukv/JOgmK7QMFe1pD1s3ADFF7IQob" }
    var fpB: String { "SHA256:pCp64L2JR4aACB6Ku3mohyWaFiNYc4RmRajasGujHbU" }
    var keyC: String { "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBIb3BhJZk+vUQPg5TQc1koIzuGqloCq7wjr9LjlhG24IBeiFHLsdWw74HDlH4DrOmlxToVYk2lTdnjARleRByjk=" }
    var fpC: String { "SHA256:lKrxC8bEZvuDW15B6H8ULQ3d19oh+uQ33ndnWjjh/Dk" }
}

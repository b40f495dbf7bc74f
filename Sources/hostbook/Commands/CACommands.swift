// `hostbook ca ...`: certificate authorities whose private keys stay in the vault; they sign
// user and host certificates, record them, and write revocation lists. One file per command
// under CA/.

enum CACommands {
    static let all: [CommandSpec] = [
        CACreate.spec,
        CAList.spec,
        CAPublic.spec,
        CASign.spec,
        CALog.spec,
        CARevoke.spec,
        CAKRL.spec,
    ]
}

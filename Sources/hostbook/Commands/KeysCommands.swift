// `hostbook keys ...`: private keys kept in the vault, their public halves in the database.
// One file per command under Keys/.

enum KeysCommands {
    static let all: [CommandSpec] = [
        KeysImport.spec,
        KeysImportAgent.spec,
        KeysGenerate.spec,
        KeysImportResident.spec,
        KeysImportToken.spec,
        KeysList.spec,
        KeysShow.spec,
        KeysEdit.spec,
        KeysPublic.spec,
        KeysExport.spec,
        KeysRemove.spec,
        KeysDeploy.spec,
        KeysAllowedSigners.spec,
        KeysCertAdd.spec,
        KeysCertRemove.spec,
    ]
}

// `hostbook snippets ...`: saved command lines (DESIGN.md, "Snippets"). Each command
// lives in Commands/Snippets/.

enum SnippetsCommands {
    static let all: [CommandSpec] = [SnippetAdd.spec, SnippetEdit.spec, SnippetList.spec, SnippetShow.spec, SnippetRemove.spec]
}

// `hostbook snippets ...`: saved command lines (docs/snippets.md). Each command
// lives in Commands/Snippets/.

enum SnippetsCommands {
    static let all: [CommandSpec] = [SnippetAdd.spec, SnippetEdit.spec, SnippetList.spec, SnippetShow.spec, SnippetRemove.spec]
}

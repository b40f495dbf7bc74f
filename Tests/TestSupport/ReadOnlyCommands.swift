// Every hostbook command that only reads, with the exit status it answers when there is no
// database yet: none of them may create one, and each must fail the same way on a database
// that cannot be read.
public enum ReadOnlyCommands {
    public static let all: [(args: [String], status: Int32)] = [
        (["list"], 0), (["list", "--json"], 0), (["show", "web"], 4),
        (["keys", "list"], 0), (["keys", "list", "--json"], 0), (["keys", "show", "k"], 4), (["keys", "public", "k"], 4),
        (["snippets", "list"], 0), (["snippets", "show", "s"], 4),
        (["known-hosts", "list"], 0), (["known-hosts", "list", "example.com"], 4),
        (["known-hosts", "check", "example.com", "--key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK9ks7jkua5YWIwByRnnnc6UPJQWI75O0e/UJdPYU1JI"], 10),
        (["known-hosts", "export"], 0), (["doctor"], 0), (["doctor", "--json"], 0),
    ]
}

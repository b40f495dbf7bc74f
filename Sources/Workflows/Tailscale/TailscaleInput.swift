// Where `import-tailscale` reads from: a file, `-` for stdin, or with no argument the output
// of `tailscale status --json`, streamed from the child's pipe as it is parsed.
#if canImport(Glibc)
import Glibc
#endif
import System
import HostStore
import ImportFormats

public enum TailscaleInput {
    /// Reads and parses the document named by `argument` (nil: run tailscale).
    public static func read(_ argument: String?, environment: [String: String]) throws -> TailscaleDocument {
        switch argument {
        case "-":
            return try parse(FileDescriptorSource(fd: STDIN_FILENO, name: "standard input"))
        case let path?:
            let fd: FileDescriptor
            do { fd = try FileDescriptor.open(forReading: path) } catch { throw TailscaleRefusal.cannotOpen(path: path, reason: "\(error)") }
            defer { fd.close() }
            return try parse(FileDescriptorSource(fd: fd.rawValue, name: "'\(path)'"))
        case nil:
            return try runTailscale(environment: environment)
        }
    }

    /// An input that cannot be used is a `HostStoreError` (`.unusableInput`, exit 1), with
    /// its hint: presented like every other HostStore error.
    public static func parse(_ source: FileDescriptorSource) throws -> TailscaleDocument {
        try TailscaleImporter.readDocument(source)
    }

    /// Runs `tailscale status --json` and parses its standard output as it arrives.
    public static func runTailscale(environment: [String: String]) throws -> TailscaleDocument {
        guard let executable = ExecutablePath.find("tailscale", searchPath: environment["PATH"]) else {
            throw TailscaleRefusal.tailscaleNotFound
        }
        let outPipe: UnixPipe, errPipe: UnixPipe
        do { outPipe = try UnixPipe() } catch { throw TailscaleRefusal.cannotRun(program: nil, reason: "\(error)") }
        do { errPipe = try UnixPipe() } catch {
            outPipe.close()
            throw TailscaleRefusal.cannotRun(program: nil, reason: "\(error)")
        }
        // hostbook ignores SIGPIPE; the child gets the default back, so closing the pipe on
        // it ends it rather than making it fail with "Broken pipe".
        let options = Spawn.Options(fileActions: Spawn.Options.nullInput() + [.duplicate(outPipe.writeEnd, to: STDOUT_FILENO),
                                                                             .duplicate(errPipe.writeEnd, to: STDERR_FILENO)],
                                    defaultSignals: [SIGPIPE], environment: Spawn.Options.environment(environment))
        let spawned = Result { () throws(Errno) in try Spawn.start(executable, [executable, "status", "--json"], options) }
        close(outPipe.writeEnd); close(errPipe.writeEnd)
        guard case .success(let pid) = spawned else {
            close(outPipe.readEnd); close(errPipe.readEnd)
            let why = if case .failure(let error) = spawned { error.description } else { "" }
            throw TailscaleRefusal.cannotRun(program: executable, reason: why)
        }
        var parsed: Result<TailscaleDocument, any Error>
        do {
            parsed = .success(try TailscaleImporter.readDocument(FileDescriptorSource(fd: outPipe.readEnd, name: "the output of tailscale")))
        } catch {
            parsed = .failure(error)
        }
        // After a good parse the reader has already read to the end. After a bad one the rest
        // is of no use: closing the pipe ends a child that keeps writing (SIGPIPE) instead of
        // reading whatever it might still send.
        close(outPipe.readEnd)
        let errBytes = FileDescriptor(errPipe.readEnd).readDraining(keep: 4096)
        close(errPipe.readEnd)
        let status = WaitStatus.wait(pid)
        let failed: Bool
        switch status {
        case .exited(let code): failed = code != 0
        case .signaled(let signal): failed = signal != SIGPIPE
        }
        if failed {
            let firstLine = String(decoding: errBytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
            let why = firstLine.map { $0.count > 200 ? String($0.prefix(200)) + "..." : $0 }
                ?? { switch status { case .exited(let code): "exit status \(code)"; case .signaled(let signal): "killed by signal \(signal)" } }()
            throw TailscaleRefusal.statusFailed(reason: why)
        }
        switch parsed {
        case .success(let doc): return doc
        case .failure(let e as HostStoreError) where e.kind == .unusableInput:
            throw TailscaleRefusal.statusUnusable(reason: e.message)
        case .failure(let e): throw e
        }
    }
}

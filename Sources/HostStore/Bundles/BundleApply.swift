// Planning and applying a bundle (BundleDiff holds the rules): a plan writes nothing; apply
// computes the diff again inside one write transaction, refuses when it differs from the
// plan the caller showed, and writes all of it or nothing.
import ImportFormats
import KeyFormats

extension BundleStore {
    /// What applying `document` as bundle `name` would change; writes nothing. Throws
    /// `BundleRefusal` for a replayed or reused serial, a document of another name or
    /// content this database cannot hold, and `HostStoreError` when a host of another
    /// source jumps through a host the bundle drops.
    public func plan(_ document: BundleDocument, bundle name: String) throws -> BundlePlan {
        try database.read { try diff(document, bundle: name).plan }
    }

    /// Applies `plan` in one transaction: nothing is written when anything fails. Throws
    /// `HostStoreError(.changedMeanwhile)` when the database changed since the plan.
    public func apply(_ plan: BundlePlan) throws {
        try database.write {
            let diff = try self.diff(plan.document, bundle: plan.bundle, removing: plan.removesBundle)
            guard diff.plan == plan else {
                throw HostStoreError(.changedMeanwhile, "the database changed since bundle '\(plan.bundle)' was planned; nothing was written",
                                     hint: "Run the command again to see the new plan.")
            }
            try write(diff)
        }
    }

    /// The writes of `diff`, in an order that never breaks a constraint half way: keys and
    /// snippets dropped, the bundle's hosts unhooked from their jump hosts and aliases, hosts
    /// dropped, added and updated, jump hosts set and their chains checked, snippets and
    /// keys added, the serial recorded.
    private func write(_ diff: BundleDiff) throws {
        let name = diff.plan.bundle
        let source = BundleName.source(name)
        let store = KnownHostsStore(database: database)
        let now = StoreClock.timestamp()
        for row in diff.removeEntries { try store.deleteBundleEntry(row, source: source, now: now) }
        for id in diff.removeSnippets {
            try connection.run("DELETE FROM bundle_snippets WHERE snippet_id = ?", [.int(id)])
            try connection.run("DELETE FROM snippets WHERE id = ?", [.int(id)])
        }
        let changing = diff.removeHosts + diff.updateHosts.map(\.old)
        for h in changing {
            try connection.run(HostSQL.setJump, [.null, .int(h.id)])
            try connection.run(HostSQL.deleteAliasesOfHost, [.int(h.id)])
        }
        for h in diff.removeHosts { try connection.run(HostSQL.delete, [.int(h.id)]) }
        // Hosts whose pinned keys change lose their password login (plan.removedPasswords).
        let keyChanged = Set(diff.plan.removedPasswords.filter(\.keyChanged).map(\.uuid))
        for (old, _) in diff.passwordHosts where keyChanged.contains(old.uuid) {
            try connection.run("UPDATE hosts SET auth = ? WHERE id = ?",
                               [.text(HostAuth.derived(hasPassword: false, hasKey: old.key != nil).rawValue), .int(old.id)])
        }
        var written: [(id: Int64, host: BundleHost)] = []
        for (h, keyID) in diff.addHosts {
            try connection.run(HostSQL.insertFromBundle, [
                .text(UUIDString.random()), .text(h.name), .text(h.hostname), .int(Int64(h.port)), h.user.map { .text($0) } ?? .null,
                .text(HostAuth.derived(hasPassword: false, hasKey: keyID != nil).rawValue), keyID.map { .int($0) } ?? .null,
                h.note.map { .text($0) } ?? .null, .text(source)])
            written.append((connection.lastInsertRowID, h))
        }
        for (old, h, keyID) in diff.updateHosts {
            // A password the user stored for the host stays its way in while the host keeps
            // its address; when the bundle moves it, the password goes (plan.removedPasswords).
            let keepsPassword = old.auth == .password && !Self.addressChanged(old, h) && !keyChanged.contains(old.uuid)
            let auth = keepsPassword ? HostAuth.password : HostAuth.derived(hasPassword: false, hasKey: keyID != nil)
            try connection.run(HostSQL.updateFromBundle, [
                .text(h.name), .text(h.hostname), .int(Int64(h.port)), h.user.map { .text($0) } ?? .null, .text(auth.rawValue),
                keyID.map { .int($0) } ?? .null, h.note.map { .text($0) } ?? .null, .int(old.id)])
            try connection.run(HostSQL.deleteTagsOfHost, [.int(old.id)])
            written.append((old.id, h))
        }
        for (id, h) in written {
            try database.insertTags(h.tags, hostID: id)
            try database.insertAliases(h.aliases, hostID: id)
        }
        // Unchanged hosts of the bundle keep their jump host; the others get theirs now.
        for (id, h) in written {
            guard let jump = h.jump else { continue }
            try connection.run(HostSQL.setJump, [.int(try database.jumpHostID(named: jump)), .int(id)])
        }
        for (_, h) in written where h.jump != nil {
            guard let host = try database.findHost(h.name) else { throw database.noHost(h.name) }
            try database.refuseBadJumpChains(through: host)
        }
        for o in diff.overrideValues {
            _ = try connection.run("UPDATE bundle_overrides SET bundle_value = ? WHERE host_id = ? AND field = ?",
                                   [o.value.map { .text($0) } ?? .null, .int(o.hostID), .text(o.field.rawValue)])
        }
        for s in diff.addSnippets {
            try connection.run("""
                INSERT INTO snippets(uuid, name, command, description, created_at, updated_at)
                VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ','now'), strftime('%Y-%m-%dT%H:%M:%SZ','now'))
                """, [.text(UUIDString.random()), .text(s.name), .text(s.command), s.description.map { .text($0) } ?? .null])
            try connection.run("INSERT INTO bundle_snippets (snippet_id, bundle) VALUES (?, ?)", [.int(connection.lastInsertRowID), .text(name)])
        }
        for (id, s) in diff.updateSnippets {
            try connection.run("""
                UPDATE snippets SET name = ?, command = ?, description = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ?
                """, [.text(s.name), .text(s.command), s.description.map { .text($0) } ?? .null, .int(id)])
        }
        for e in diff.addEntries { try store.insertBundleEntry(e, source: source, now: now) }
        if diff.plan.revocationListChanged { try store.setRevocationList(diff.revocationList, source: source, now: now) }
        let certificates = KeyCertificates(database: database)
        for (key, certificate) in diff.attachCertificates {
            try certificates.attachInTransaction(certificate, comment: source, to: key)
        }
        if diff.addEntries.contains(where: { $0.hashed != nil }) { try store.refreshHashPackAfterBundle() }
        if !diff.plan.removesBundle { try recordApplied(name, serial: diff.plan.serial, digest: diff.plan.digest) }
    }

    /// The plan that removes everything bundle `name` brought (`bundle unsubscribe`): its
    /// hosts, snippets and host keys; apply it as any plan. The serial applied stays
    /// recorded, so an older bundle is still refused if it is subscribed to again. Nil when
    /// the bundle was never applied here.
    public func planRemoval(bundle name: String) throws -> BundlePlan? {
        try database.read {
            guard let previous = try applied(name) else { return nil }
            return try diff(BundleDocument(name: name, serial: previous.serial), bundle: name, removing: true).plan
        }
    }
}

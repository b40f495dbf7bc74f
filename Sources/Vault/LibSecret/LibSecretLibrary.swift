// libsecret, GIO, GObject and GLib, loaded with dlopen(3) the first time the vault is used
// rather than linked: a hostbook process that never reads the vault (`known-hosts lookup`,
// which ssh runs twice on every connection through the installed configuration; `list`,
// `ssh-config`, the completions) does not map their ~13 shared libraries nor run their
// constructors at start-up (benchmarks/README.md, "Issue 32"). Each function Vault calls is
// found once, on its first call, in libsecret's dependency tree, with the type of its C
// declaration (CLibSecret's `hostbook_NAME_fn`); Vault calls them as `LibSecret.NAME`.
internal import CLibSecret
import System

enum LibSecret {
    /// The soname Debian's libsecret-1-0 installs (the package hostbook depends on).
    static let soname = "libsecret-1.so.0"

    /// Loaded once, kept for the life of the process (GLib's type system cannot be unloaded).
    /// A system without libsecret could not start hostbook at all when it was linked; now
    /// only a command that uses the vault stops: `requireLoaded()`, called before the first
    /// libsecret call of every vault operation (Deadline, PrivateBusConnection), throws a
    /// VaultError naming the library and its package.
    private static let loaded: Result<DynamicLibrary, VaultError> = load(soname)

    /// `soname` loaded, or the VaultError saying which library is missing and why.
    static func load(_ soname: String) -> Result<DynamicLibrary, VaultError> {
        do throws(DynamicLibrary.LoadError) { return .success(try DynamicLibrary(path: soname)) } catch {
            return .failure(.libraryMissing(soname, reason: error.reason))
        }
    }

    /// Throws when libsecret cannot be loaded; every symbol below is found only after this.
    static func requireLoaded() throws(VaultError) {
        if case .failure(let error) = loaded { throw error }
    }

    private static func function<Pointer>(_ name: String, _: Pointer.Type) -> Pointer {
        // requireLoaded() has been called before any libsecret call: a library that loaded but
        // lacks a function Debian's libsecret-1-0 has is not the library hostbook was built for.
        guard case .success(let library) = loaded else { fatalError("libsecret used before LibSecret.requireLoaded()") }
        do throws(DynamicLibrary.LoadError) { return unsafeBitCast(try library.symbol(name), to: Pointer.self) } catch {
            fatalError("\(soname) has no \(name): \(error.reason)")
        }
    }

    static let g_bus_get_sync = function("g_bus_get_sync", hostbook_g_bus_get_sync_fn.self)
    static let g_cancellable_cancel = function("g_cancellable_cancel", hostbook_g_cancellable_cancel_fn.self)
    static let g_cancellable_is_cancelled = function("g_cancellable_is_cancelled", hostbook_g_cancellable_is_cancelled_fn.self)
    static let g_cancellable_new = function("g_cancellable_new", hostbook_g_cancellable_new_fn.self)
    static let g_dbus_address_get_for_bus_sync = function("g_dbus_address_get_for_bus_sync", hostbook_g_dbus_address_get_for_bus_sync_fn.self)
    static let g_dbus_connection_call_sync = function("g_dbus_connection_call_sync", hostbook_g_dbus_connection_call_sync_fn.self)
    static let g_dbus_connection_close_sync = function("g_dbus_connection_close_sync", hostbook_g_dbus_connection_close_sync_fn.self)
    static let g_dbus_connection_new_for_address_sync = function("g_dbus_connection_new_for_address_sync", hostbook_g_dbus_connection_new_for_address_sync_fn.self)
    static let g_dbus_connection_set_exit_on_close = function("g_dbus_connection_set_exit_on_close", hostbook_g_dbus_connection_set_exit_on_close_fn.self)
    static let g_dbus_error_quark = function("g_dbus_error_quark", hostbook_g_dbus_error_quark_fn.self)
    static let g_dbus_proxy_get_object_path = function("g_dbus_proxy_get_object_path", hostbook_g_dbus_proxy_get_object_path_fn.self)
    static let g_error_free = function("g_error_free", hostbook_g_error_free_fn.self)
    static let g_free = function("g_free", hostbook_g_free_fn.self)
    static let g_hash_table_insert = function("g_hash_table_insert", hostbook_g_hash_table_insert_fn.self)
    static let g_hash_table_lookup = function("g_hash_table_lookup", hostbook_g_hash_table_lookup_fn.self)
    static let g_hash_table_new_full = function("g_hash_table_new_full", hostbook_g_hash_table_new_full_fn.self)
    static let g_hash_table_unref = function("g_hash_table_unref", hostbook_g_hash_table_unref_fn.self)
    static let g_io_error_quark = function("g_io_error_quark", hostbook_g_io_error_quark_fn.self)
    static let g_list_append = function("g_list_append", hostbook_g_list_append_fn.self)
    static let g_list_free = function("g_list_free", hostbook_g_list_free_fn.self)
    static let g_list_free_full = function("g_list_free_full", hostbook_g_list_free_full_fn.self)
    static let g_object_ref = function("g_object_ref", hostbook_g_object_ref_fn.self)
    static let g_object_unref = function("g_object_unref", hostbook_g_object_unref_fn.self)
    static let g_str_equal = function("g_str_equal", hostbook_g_str_equal_fn.self)
    static let g_str_hash = function("g_str_hash", hostbook_g_str_hash_fn.self)
    static let g_strdup = function("g_strdup", hostbook_g_strdup_fn.self)
    static let g_variant_get_boolean = function("g_variant_get_boolean", hostbook_g_variant_get_boolean_fn.self)
    static let g_variant_get_child_value = function("g_variant_get_child_value", hostbook_g_variant_get_child_value_fn.self)
    static let g_variant_get_string = function("g_variant_get_string", hostbook_g_variant_get_string_fn.self)
    static let g_variant_get_uint32 = function("g_variant_get_uint32", hostbook_g_variant_get_uint32_fn.self)
    static let g_variant_get_variant = function("g_variant_get_variant", hostbook_g_variant_get_variant_fn.self)
    static let g_variant_n_children = function("g_variant_n_children", hostbook_g_variant_n_children_fn.self)
    static let g_variant_new_string = function("g_variant_new_string", hostbook_g_variant_new_string_fn.self)
    static let g_variant_new_tuple = function("g_variant_new_tuple", hostbook_g_variant_new_tuple_fn.self)
    static let g_variant_unref = function("g_variant_unref", hostbook_g_variant_unref_fn.self)
    static let secret_collection_for_alias_sync = function("secret_collection_for_alias_sync", hostbook_secret_collection_for_alias_sync_fn.self)
    static let secret_collection_get_label = function("secret_collection_get_label", hostbook_secret_collection_get_label_fn.self)
    static let secret_collection_get_locked = function("secret_collection_get_locked", hostbook_secret_collection_get_locked_fn.self)
    static let secret_error_get_quark = function("secret_error_get_quark", hostbook_secret_error_get_quark_fn.self)
    static let secret_item_delete_sync = function("secret_item_delete_sync", hostbook_secret_item_delete_sync_fn.self)
    static let secret_item_get_attributes = function("secret_item_get_attributes", hostbook_secret_item_get_attributes_fn.self)
    static let secret_item_get_locked = function("secret_item_get_locked", hostbook_secret_item_get_locked_fn.self)
    static let secret_item_get_secret = function("secret_item_get_secret", hostbook_secret_item_get_secret_fn.self)
    static let secret_item_load_secret_sync = function("secret_item_load_secret_sync", hostbook_secret_item_load_secret_sync_fn.self)
    static let secret_service_get_type = function("secret_service_get_type", hostbook_secret_service_get_type_fn.self)
    static let secret_service_lock_sync = function("secret_service_lock_sync", hostbook_secret_service_lock_sync_fn.self)
    static let secret_service_open_sync = function("secret_service_open_sync", hostbook_secret_service_open_sync_fn.self)
    static let secret_service_search_sync = function("secret_service_search_sync", hostbook_secret_service_search_sync_fn.self)
    static let secret_service_store_sync = function("secret_service_store_sync", hostbook_secret_service_store_sync_fn.self)
    static let secret_service_unlock_sync = function("secret_service_unlock_sync", hostbook_secret_service_unlock_sync_fn.self)
    static let secret_value_get = function("secret_value_get", hostbook_secret_value_get_fn.self)
    static let secret_value_new = function("secret_value_new", hostbook_secret_value_new_fn.self)
    static let secret_value_unref = function("secret_value_unref", hostbook_secret_value_unref_fn.self)
}

// The Secret Service vault (see VaultClient). Placeholder until the vault lands.

521 SHA256:hz7JuE/c7NtRATqsMLErWwuQaHiqyz0z6iAybZtgYdg no comment (ECDSA)

521 SHA256:DSO7fNspehszh0SqM9zmd7DdmsXZ8eQlAQ5PsppnVVQ no comment (ECDSA)

2048 SHA256:QPjwsbrYFhrtUKpza82U7CUSR9z/yUb3i7VkAP0QV2A rsa ppk fixture (RSA)

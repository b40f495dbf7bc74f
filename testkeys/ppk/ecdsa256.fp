256 SHA256:pueXdT/y+95cEdfY22M9o8Mug9cWpzwKBV+FL9z8D1Q ecdsa256 ppk fixture (ECDSA)

Content-Type: application/json

{}
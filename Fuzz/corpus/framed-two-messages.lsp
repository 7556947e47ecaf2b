Content-Length: 44

{"jsonrpc":"2.0","id":2,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}
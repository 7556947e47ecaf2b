Content-Length: 10

{"jsonrpc":"2.0","method":"exit"}
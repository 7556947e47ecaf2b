Content-Length: 225

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":1234,"rootUri":"file:///home/me/tasks","capabilities":{"textDocument":{"synchronization":{"didSave":true}}},"clientInfo":{"name":"nvim","version":"0.10.0"}}}
/// A status page flood (issue 38 item 7): a python3 script, run as `script PORT
/// CLIENTS REPORT_FILE`, whose CLIENTS threads each send `GET /` and `HEAD /` in turn
/// on a kept-alive connection to 127.0.0.1:PORT as fast as answers come, and which
/// writes the total answered to REPORT_FILE twice a second. `bridge-bench --only
/// stalls` and the status flood test both run it.
public enum StatusPageFloodScript {
    public static let python = """
    import http.client, os, sys, threading, time
    port, clients, report = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    count = [0]
    lock = threading.Lock()
    def client():
        connection = None
        while True:
            try:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                for method in ("GET", "HEAD"):
                    connection.request(method, "/")
                    connection.getresponse().read()
                    with lock:
                        count[0] += 1
            except Exception:
                connection = None
                time.sleep(0.01)
    for _ in range(clients):
        threading.Thread(target=client, daemon=True).start()
    while True:
        time.sleep(0.5)
        with lock:
            value = count[0]
        with open(report + ".tmp", "w") as f:
            f.write(str(value))
        os.replace(report + ".tmp", report)
    """
}

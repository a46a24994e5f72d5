#include <curl/curl.h>

/* Typed wrappers for libcurl's variadic functions, which Swift cannot call. */

static inline CURLcode sb_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sb_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sb_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode sb_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*sb_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode sb_curl_setopt_write_function(CURL *handle, sb_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode sb_curl_setopt_header_function(CURL *handle, sb_curl_data_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

static inline CURLcode sb_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode sb_curl_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* The multi interface: typed wrappers for curl_multi_setopt and its callbacks. */

typedef int (*sb_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *context, void *socketContext);
typedef int (*sb_curl_timer_callback)(CURLM *multi, long timeoutMs, void *context);

static inline CURLMcode sb_curl_multi_setopt_socket_function(CURLM *multi, sb_curl_socket_callback callback, void *context) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, context);
}

static inline CURLMcode sb_curl_multi_setopt_timer_function(CURLM *multi, sb_curl_timer_callback callback, void *context) {
    CURLMcode code = curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
    return code != CURLM_OK ? code : curl_multi_setopt(multi, CURLMOPT_TIMERDATA, context);
}

/* The result of a finished transfer (a union member Swift reads awkwardly). */
static inline CURLcode sb_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}

static const curl_socket_t sb_curl_socket_timeout = CURL_SOCKET_TIMEOUT;

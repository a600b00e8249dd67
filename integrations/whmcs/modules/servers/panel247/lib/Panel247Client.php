<?php

declare(strict_types=1);

namespace Panel247\Whmcs;

use RuntimeException;

/**
 * A failed call to Panel247's provisioning API. Its message is meant for the WHMCS admin as is:
 * the panel's own (translated) errors, or what went wrong on the way there.
 */
final class Panel247Error extends RuntimeException
{
}

/**
 * The HTTP client of Panel247's provisioning API (`/p247/provider/`). It knows nothing of WHMCS:
 * the module gives it the base URL, the token and a logger, so that it can be used and tested
 * outside WHMCS.
 *
 * Every answer is the panel's envelope `{"system":{"valid":…,"errors":[…]},"data":…}`; a call
 * succeeded only when the HTTP status is 2xx and `system.valid` is true.
 */
final class Panel247Client
{
    private const USER_AGENT = 'Panel247-WHMCS/1.0';

    /** @var (callable(string, string, array<string, string>, ?string, string, mixed): void)|null */
    private $logger;

    /**
     * @param string $baseUrl `http(s)://host[:port]/p247/provider/`, ending with a slash
     * @param string $token a provider token, sent as `Authorization: Bearer …`
     * @param int $timeoutSeconds the whole call; creating a service only records it on the panel
     *     (its servers apply it afterwards), so a slower answer means trouble, not work
     * @param bool $verifyTls off only for a test against a panel with a certificate no CA signed:
     *     the token travels in every call
     * @param (callable(string $method, string $url, array<string, string> $fields, ?string $idempotencyKey, string $raw, mixed $decoded): void)|null $logger
     *     called once per call, with the form fields as sent (the caller masks its secrets)
     */
    public function __construct(
        private readonly string $baseUrl,
        private readonly string $token,
        private readonly int $timeoutSeconds = 30,
        private readonly bool $verifyTls = true,
        ?callable $logger = null,
    ) {
        self::assertHeaderSafe($token, 'The token');
        $this->logger = $logger;
    }

    /** GET a path under the base URL; returns the envelope's `data`. */
    public function get(string $path): mixed
    {
        return $this->call('GET', $path, [], null);
    }

    /**
     * POST form fields to a path under the base URL; returns the envelope's `data`.
     *
     * @param array<string, string> $fields
     * @param string $idempotencyKey the same for a retry of the same action, so that the panel
     *     answers a retry from its record instead of doing the work twice
     */
    public function post(string $path, array $fields, string $idempotencyKey): mixed
    {
        self::assertHeaderSafe($idempotencyKey, 'The Idempotency-Key');
        return $this->call('POST', $path, $fields, $idempotencyKey);
    }

    public function urlOf(string $path): string
    {
        return $this->baseUrl . ltrim($path, '/');
    }

    /** @param array<string, string> $fields */
    private function call(string $method, string $path, array $fields, ?string $idempotencyKey): mixed
    {
        $url = $this->urlOf($path);
        $handle = curl_init();
        if ($handle === false) {
            throw new Panel247Error('PHP could not start a curl request');
        }
        curl_setopt_array($handle, $this->optionsFor($method, $url, $fields, $idempotencyKey));
        $raw = curl_exec($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        $curlErrno = curl_errno($handle);
        $curlError = curl_error($handle);
        $redirect = (string) curl_getinfo($handle, CURLINFO_REDIRECT_URL);
        unset($handle);

        if ($raw === false || $curlErrno !== 0) {
            $this->log($method, $url, $fields, $idempotencyKey, 'curl error ' . $curlErrno . ': ' . $curlError, null);
            throw new Panel247Error(self::networkErrorMessage($url, $curlErrno, $curlError, $this->timeoutSeconds));
        }
        $raw = (string) $raw;
        $decoded = json_decode($raw, true);
        $this->log($method, $url, $fields, $idempotencyKey, $raw, $decoded);

        return self::dataOf($url, $status, $decoded, $redirect);
    }

    /**
     * @param array<string, string> $fields
     * @return array<int, mixed>
     */
    private function optionsFor(string $method, string $url, array $fields, ?string $idempotencyKey): array
    {
        $headers = [
            'Authorization: Bearer ' . $this->token,
            'Accept: application/json',
            // The panel translates its errors; WHMCS shows them to the admin as they come.
            'Accept-Language: en',
        ];
        $options = [
            CURLOPT_URL => $url,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_CONNECTTIMEOUT => min(10, $this->timeoutSeconds),
            CURLOPT_TIMEOUT => $this->timeoutSeconds,
            CURLOPT_USERAGENT => self::USER_AGENT,
            // A redirect would turn a POST into a GET or send the token elsewhere: report it instead.
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            // The service's domain is a path segment: a domain of dots must not climb the path.
            CURLOPT_PATH_AS_IS => true,
            CURLOPT_SSL_VERIFYPEER => $this->verifyTls,
            CURLOPT_SSL_VERIFYHOST => $this->verifyTls ? 2 : 0,
        ];
        if ($method === 'POST') {
            $headers[] = 'Content-Type: application/x-www-form-urlencoded';
            $headers[] = 'Idempotency-Key: ' . $idempotencyKey;
            $options[CURLOPT_POST] = true;
            $options[CURLOPT_POSTFIELDS] = http_build_query($fields, '', '&', PHP_QUERY_RFC1738);
        } else {
            $options[CURLOPT_HTTPGET] = true;
        }
        $options[CURLOPT_HTTPHEADER] = $headers;
        return $options;
    }

    /** @param array<string, string> $fields */
    private function log(
        string $method,
        string $url,
        array $fields,
        ?string $idempotencyKey,
        string $raw,
        mixed $decoded,
    ): void {
        if ($this->logger !== null) {
            ($this->logger)($method, $url, $fields, $idempotencyKey, $raw, $decoded);
        }
    }

    /** The envelope's `data` of a successful answer, or the error WHMCS should show. */
    private static function dataOf(string $url, int $status, mixed $decoded, string $redirect): mixed
    {
        $system = is_array($decoded) && is_array($decoded['system'] ?? null) ? $decoded['system'] : null;
        if ($system === null || !is_bool($system['valid'] ?? null)) {
            throw new Panel247Error(self::notPanelMessage($url, $status, $redirect));
        }
        $succeeded = $status >= 200 && $status < 300 && $system['valid'] === true;
        if (!$succeeded) {
            throw new Panel247Error(self::envelopeErrorMessage($status, $system));
        }
        return $decoded['data'] ?? null;
    }

    /** @param array<string, mixed> $system */
    private static function envelopeErrorMessage(int $status, array $system): string
    {
        $errors = array_values(array_filter(
            is_array($system['errors'] ?? null) ? $system['errors'] : [],
            static fn (mixed $error): bool => is_string($error) && $error !== '',
        ));
        return $errors !== []
            ? implode('; ', $errors)
            : 'Panel247 refused the call (HTTP ' . $status . ') without saying why';
    }

    private static function notPanelMessage(string $url, int $status, string $redirect): string
    {
        $where = 'Panel247 was expected at ' . $url . ' but it answered HTTP ' . $status;
        if ($redirect !== '') {
            return $where . ' with a redirect to ' . $redirect
                . ': check the server\'s hostname, port and "Secure" setting in WHMCS';
        }
        return $where . ' with something other than Panel247\'s JSON'
            . ': check the server\'s hostname, port and "Secure" setting in WHMCS';
    }

    private static function networkErrorMessage(string $url, int $errno, string $error, int $timeout): string
    {
        if ($errno === CURLE_OPERATION_TIMEDOUT) {
            // A timeout is not a refusal: the panel may have done it. The same Idempotency-Key
            // makes the retry safe, so say so instead of "nothing was changed".
            return 'Panel247 at ' . $url . ' did not answer within ' . $timeout . ' s; the action may'
                . ' have been done all the same: run it again (a retry is answered from the panel\'s'
                . ' record, not done twice)';
        }
        return 'Could not reach Panel247 at ' . $url . ': ' . ($error !== '' ? $error : 'curl error ' . $errno);
    }

    /** CR, LF or NUL in a header value would let it add headers of its own. */
    private static function assertHeaderSafe(string $value, string $what): void
    {
        if ($value === '' || preg_match('/[\x00-\x20\x7f]/', $value) === 1) {
            throw new Panel247Error($what . ' is empty or has spaces or control characters in it');
        }
    }
}

<?php
// Panel247 site-builder sign-on: what the builder does with the `token` of the link the panel
// opens (POST service/{id}/webcontructorlogin/). The token is
//   base64url(JSON claims) "." base64url(HMAC-SHA256(key, first part))
// signed with PANEL_SITEBUILDER_KEY, which the builder shares. The claims say which site to open:
//   {"v":1,"service":12,"host":"blog.example.com","folder":"blog","lang":"es","iat":…,"exp":…,"nonce":"…"}
// A builder includes this file and calls panel247_verify_builder_token($token, $key); it gets the
// claims, or null for a token that is forged, altered, expired or malformed. Tokens live 120 s;
// a builder that wants them single-use remembers each `nonce` until its `exp`.
//
// Run from the command line it checks one token: php verify-token.php TOKEN (key in
// PANEL_SITEBUILDER_KEY) prints the claims as JSON and exits 0, or exits 1.
declare(strict_types=1);

function panel247_base64url_decode(string $text): ?string
{
    if (!preg_match('/^[A-Za-z0-9_-]*$/', $text)) {
        return null;
    }
    $decoded = base64_decode(strtr($text, '-_', '+/') . str_repeat('=', (4 - strlen($text) % 4) % 4), true);
    return $decoded === false ? null : $decoded;
}

function panel247_verify_builder_token(string $token, string $key, ?int $now = null): ?array
{
    $parts = explode('.', $token);
    if (count($parts) !== 2 || strlen($key) < 32) {
        return null;
    }
    [$payload, $signature] = $parts;
    $given = panel247_base64url_decode($signature);
    $expected = hash_hmac('sha256', $payload, $key, true);
    if ($given === null || !hash_equals($expected, $given)) {
        return null;
    }
    $json = panel247_base64url_decode($payload);
    $claims = $json === null ? null : json_decode($json, true);
    if (!is_array($claims) || ($claims['v'] ?? null) !== 1 || !is_int($claims['exp'] ?? null)) {
        return null;
    }
    return $claims['exp'] >= ($now ?? time()) ? $claims : null;
}

if (PHP_SAPI === 'cli' && realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $claims = panel247_verify_builder_token($argv[1] ?? '', (string) getenv('PANEL_SITEBUILDER_KEY'));
    if ($claims === null) {
        fwrite(STDERR, "invalid token\n");
        exit(1);
    }
    echo json_encode($claims), "\n";
    exit(0);
}

<?php
// Shared by the guestbook's pages: configuration, texts, the database and HTML escaping.
declare(strict_types=1);

require __DIR__ . '/config.php';

const GB_TEXTS = [
    'es' => [
        'sign' => 'Firma el libro', 'name' => 'Nombre', 'message' => 'Mensaje', 'send' => 'Enviar',
        'empty' => 'Todavía no hay mensajes.', 'thanks' => 'Gracias por tu mensaje.',
        'pending' => 'Gracias: tu mensaje se publicará cuando lo revisemos.',
        'invalid' => 'Escribe tu nombre (hasta 100 caracteres) y un mensaje (hasta 2000).',
        'db_ok' => 'Base de datos conectada', 'db_down' => 'La base de datos no responde.',
        'admin' => 'Administración', 'email' => 'Correo', 'password' => 'Contraseña', 'login' => 'Entrar',
        'logout' => 'Salir', 'bad_login' => 'Correo o contraseña incorrectos.', 'approve' => 'Publicar',
        'nothing_pending' => 'No hay mensajes pendientes.',
    ],
    'en' => [
        'sign' => 'Sign the book', 'name' => 'Name', 'message' => 'Message', 'send' => 'Send',
        'empty' => 'No messages yet.', 'thanks' => 'Thank you for your message.',
        'pending' => 'Thank you: your message will appear once it has been reviewed.',
        'invalid' => 'Write your name (up to 100 characters) and a message (up to 2000).',
        'db_ok' => 'Database connected', 'db_down' => 'The database does not answer.',
        'admin' => 'Administration', 'email' => 'E-mail', 'password' => 'Password', 'login' => 'Log in',
        'logout' => 'Log out', 'bad_login' => 'Wrong e-mail or password.', 'approve' => 'Publish',
        'nothing_pending' => 'No messages are waiting.',
    ],
    'ca' => [
        'sign' => 'Signa el llibre', 'name' => 'Nom', 'message' => 'Missatge', 'send' => 'Envia',
        'empty' => 'Encara no hi ha missatges.', 'thanks' => 'Gràcies pel teu missatge.',
        'pending' => 'Gràcies: el teu missatge es publicarà quan l’haguem revisat.',
        'invalid' => 'Escriu el teu nom (fins a 100 caràcters) i un missatge (fins a 2000).',
        'db_ok' => 'Base de dades connectada', 'db_down' => 'La base de dades no respon.',
        'admin' => 'Administració', 'email' => 'Correu', 'password' => 'Contrasenya', 'login' => 'Entra',
        'logout' => 'Surt', 'bad_login' => 'Correu o contrasenya incorrectes.', 'approve' => 'Publica',
        'nothing_pending' => 'No hi ha missatges pendents.',
    ],
];

function t(string $key): string
{
    return (GB_TEXTS[GB_LANGUAGE] ?? GB_TEXTS['en'])[$key];
}

function e(string $text): string
{
    return htmlspecialchars($text, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8');
}

/** The connection, with the table created on first use; null when the database does not answer. */
function db(): ?PDO
{
    static $pdo = null;
    if ($pdo !== null) {
        return $pdo;
    }
    try {
        $dsn = sprintf('mysql:host=%s;port=%d;dbname=%s;charset=utf8mb4', GB_DB_HOST, (int) GB_DB_PORT, GB_DB_NAME);
        $pdo = new PDO($dsn, GB_DB_USER, GB_DB_PASSWORD, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $pdo->exec(
            'CREATE TABLE IF NOT EXISTS guestbook_entries (
                id INT AUTO_INCREMENT PRIMARY KEY,
                name VARCHAR(100) NOT NULL,
                message TEXT NOT NULL,
                approved TINYINT NOT NULL DEFAULT 1,
                created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
            ) CHARACTER SET utf8mb4'
        );
        return $pdo;
    } catch (PDOException $error) {
        error_log('guestbook: database: ' . $error->getMessage());
        return null;
    }
}

/** A per-session token for the forms, so another site cannot post into them. */
function form_token(): string
{
    if (session_status() !== PHP_SESSION_ACTIVE) {
        session_start();
    }
    $_SESSION['gb_token'] ??= bin2hex(random_bytes(16));
    return $_SESSION['gb_token'];
}

function form_token_ok(): bool
{
    return hash_equals(form_token(), (string) ($_POST['token'] ?? ''));
}

function page_start(string $title): void
{
    $theme = GB_THEME === 'dark' ? 'dark' : 'light';
    echo '<!doctype html><html lang="' . e(GB_LANGUAGE) . '"><head><meta charset="utf-8">'
        . '<meta name="viewport" content="width=device-width, initial-scale=1">'
        . '<title>' . e($title) . '</title><link rel="stylesheet" href="style.css"></head>'
        . '<body class="' . $theme . '"><main>';
}

function page_end(bool $connected): void
{
    echo '<footer>' . e($connected ? t('db_ok') : t('db_down')) . '</footer></main></body></html>';
}

<?php
// Moderation: the administrator chosen at install time publishes the messages waiting for review.
declare(strict_types=1);

require __DIR__ . '/lib.php';

form_token();
$pdo = db();
$error = '';
if ($_SERVER['REQUEST_METHOD'] === 'POST' && form_token_ok()) {
    $action = (string) ($_POST['action'] ?? '');
    if ($action === 'login') {
        $email = (string) ($_POST['email'] ?? '');
        $password = (string) ($_POST['password'] ?? '');
        if (hash_equals(strtolower(GB_ADMIN_EMAIL), strtolower($email)) && password_verify($password, GB_ADMIN_HASH)) {
            session_regenerate_id(true);
            $_SESSION['gb_admin'] = true;
        } else {
            http_response_code(403);
            $error = t('bad_login');
        }
    } elseif ($action === 'logout') {
        $_SESSION = [];
        session_regenerate_id(true);
    } elseif ($action === 'approve' && ($_SESSION['gb_admin'] ?? false) && $pdo !== null) {
        $pdo->prepare('UPDATE guestbook_entries SET approved = 1 WHERE id = ?')->execute([(int) ($_POST['id'] ?? 0)]);
    }
}

page_start(t('admin') . ' · ' . GB_SITE_TITLE);
echo '<h1>' . e(t('admin')) . '</h1>';
if (!($_SESSION['gb_admin'] ?? false)) {
    if ($error !== '') {
        echo '<p class="notice" role="alert">' . e($error) . '</p>';
    }
    echo '<form method="post"><input type="hidden" name="token" value="' . e(form_token()) . '">'
        . '<input type="hidden" name="action" value="login">'
        . '<label>' . e(t('email')) . ' <input name="email" type="email" required></label>'
        . '<label>' . e(t('password')) . ' <input name="password" type="password" required></label>'
        . '<button>' . e(t('login')) . '</button></form>';
} elseif ($pdo !== null) {
    $pending = $pdo->query('SELECT id, name, message FROM guestbook_entries WHERE approved = 0 ORDER BY id')
        ->fetchAll(PDO::FETCH_ASSOC);
    if ($pending === []) {
        echo '<p>' . e(t('nothing_pending')) . '</p>';
    }
    echo '<ul class="entries">';
    foreach ($pending as $entry) {
        echo '<li><strong>' . e($entry['name']) . '</strong><p>' . nl2br(e($entry['message'])) . '</p>'
            . '<form method="post"><input type="hidden" name="token" value="' . e(form_token()) . '">'
            . '<input type="hidden" name="action" value="approve"><input type="hidden" name="id" value="'
            . (int) $entry['id'] . '"><button>' . e(t('approve')) . '</button></form></li>';
    }
    echo '</ul><form method="post"><input type="hidden" name="token" value="' . e(form_token()) . '">'
        . '<input type="hidden" name="action" value="logout"><button>' . e(t('logout')) . '</button></form>';
}
echo '<p><a href="./">' . e(GB_SITE_TITLE) . '</a></p>';
page_end($pdo !== null);

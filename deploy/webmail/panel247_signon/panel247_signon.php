<?php
/**
 * Panel247 sign-on for Roundcube. The panel's "WebMail" button posts a form to Roundcube with the
 * mailbox (_user) and a one-time token (_p247_token; never a password). This plugin trades the
 * token, server to server, for the mailbox it opens (redeem.php, with the shared key) and logs in
 * through Dovecot's master user: Roundcube knows the user by the real address, and every IMAP and
 * SMTP connection of that session authenticates as "address*master" with the master password
 * (deploy/dovecot: the master-users passdb). An ordinary login form is left alone.
 *
 * Install: copy this folder to Roundcube's plugins/ as panel247_signon, fill in config.inc.php from
 * config.inc.php.dist, and add 'panel247_signon' to $config['plugins'].
 */
require_once __DIR__ . '/redeem.php';

class panel247_signon extends rcube_plugin
{
    /** Set when this request signed on with a token: the session flag only exists after login. */
    private $signedOn = false;

    public function init()
    {
        $this->load_config();
        $this->add_hook('startup', [$this, 'startup']);
        $this->add_hook('authenticate', [$this, 'authenticate']);
        $this->add_hook('login_after', [$this, 'login_after']);
        $this->add_hook('storage_connect', [$this, 'storage_connect']);
        $this->add_hook('smtp_connect', [$this, 'smtp_connect']);
    }

    private function token()
    {
        return (string) rcube_utils::get_input_string('_p247_token', rcube_utils::INPUT_POST);
    }

    private function setting($name, $default = '')
    {
        return (string) rcmail::get_instance()->config->get($name, $default);
    }

    /** A posted token is always a login, whatever the URL said or who was logged in before. */
    public function startup($args)
    {
        if ($this->token() !== '') {
            $args['task'] = 'login';
            $args['action'] = 'login';
        }
        return $args;
    }

    public function authenticate($args)
    {
        $token = $this->token();
        if ($token === '') {
            return $args;
        }
        $why = null;
        $user = panel247_webmail_redeem(
            $this->setting('panel247_redeem_url'),
            $this->setting('panel247_webmail_key'),
            $token,
            $why
        );
        $masterPassword = $this->setting('panel247_master_password');
        if ($user === null || $masterPassword === '') {
            rcube::write_log('errors', 'panel247_signon: sign-on refused (' . ($why ?? 'no master password') . ')');
            $args['abort'] = true;
            $args['valid'] = false;
            $args['error'] = 'This sign-on has expired or was already used. Open WebMail again from the control panel.';
            return $args;
        }
        // Another mailbox may be open in this browser: start from a clean session, as Roundcube
        // itself does before an ordinary login.
        if (!empty($_SESSION['user_id'])) {
            rcmail::get_instance()->kill_session();
        }
        $this->signedOn = true;
        $args['user'] = $user;
        $args['pass'] = $masterPassword;
        // The panel's token, checked once server to server, stands in for Roundcube's own
        // login-form token and cookie check (the browser comes straight from the panel).
        $args['valid'] = true;
        $args['cookiecheck'] = false;
        return $args;
    }

    public function login_after($args)
    {
        if ($this->signedOn) {
            $_SESSION['panel247_signon'] = true;
        }
        return $args;
    }

    private function active()
    {
        return $this->signedOn || !empty($_SESSION['panel247_signon']);
    }

    /** "address" becomes "address*webmail": Dovecot checks the master password, opens the address. */
    private function asMaster($user)
    {
        $separator = $this->setting('panel247_master_separator', '*');
        if ($separator === '' || strpos($user, $separator) !== false) {
            return $user;
        }
        return $user . $separator . $this->setting('panel247_master_user', 'webmail');
    }

    public function storage_connect($args)
    {
        if ($this->active() && !empty($args['user'])) {
            $args['user'] = $this->asMaster((string) $args['user']);
        }
        return $args;
    }

    /**
     * Only the mailbox's own SMTP login ("%u", replaced after this hook, or the address itself);
     * a fixed relay account configured by the operator stays as it is.
     */
    public function smtp_connect($args)
    {
        $user = (string) ($args['smtp_user'] ?? '');
        if ($this->active() && ($user === '%u' || $user === (string) rcmail::get_instance()->get_user_name())) {
            $args['smtp_user'] = $this->asMaster($user);
        }
        return $args;
    }
}

import { randomBytes } from 'node:crypto';
import type { InvitationAcceptData, InvitationCheckData } from '@panel247/contract/account-users';
import type { Language } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import { ForbiddenError, NotFoundError } from '../../errors.ts';
import { translate } from '../../i18n/messages.ts';
import { authEvent } from '../auth/auth-event.ts';
import type { ClientCall } from '../auth/client-call.ts';
import { hashPassword } from '../auth/password-hasher.ts';
import { utcMinute } from '../auth/security-mail.ts';
import { hashToken } from '../auth/session.service.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { ContactService } from '../contact/contact.service.ts';
import { accountUsersRepository } from './account-users.repository.ts';

/** Whom an invitation is for, and who sends it. */
export interface Invitee {
  userId: number;
  username: string;
  email: string;
  domainName: string;
  brandId: number;
  /** The user who invites (named in the mail). */
  by: string;
}

/**
 * Invitations: a new user sets their own password from a one-time link that expires. Only the
 * sha256 of the link's token is kept; the link lives in the mail, whose stored copy in the
 * outbox loses it once the mail is sent (ContactService), so it is at rest only while unsent.
 */
export class UserInvitations {
  constructor(
    private readonly db: Db,
    private readonly brands: BrandService,
    private readonly contact: ContactService,
    private readonly options: { hours: number; now: () => number },
  ) {}

  /** A new link for the user (an earlier one stops working), mailed to them. */
  async send(invitee: Invitee, call: ClientCall, language: Language): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    const now = this.options.now();
    const expiresAt = now + this.options.hours * 3600;
    await accountUsersRepository.putInvitation(this.db, {
      userId: invitee.userId,
      tokenHash: hashToken(token),
      now,
      expiresAt,
    });
    const brand = await this.brands.byId(invitee.brandId);
    // The fragment never reaches a server's log or another site's Referer.
    const link = `${call.secure ? 'https' : 'http'}://${call.host}/invitation/#${token}`;
    const vars = {
      user: invitee.username,
      domain: invitee.domainName,
      by: invitee.by,
      company: brand.company,
      until: utcMinute(expiresAt),
      link,
    };
    const subject = `[${brand.company}] ${translate(language, 'users.mail_subject_invitation', vars)}`;
    const body = translate(language, 'users.mail_body_invitation', vars);
    await this.contact.notifyUser(brand, 'user_invitation', invitee.email, subject, body, call.log, { secret: link });
  }

  async check(token: string): Promise<InvitationCheckData> {
    const invitation = await this.live(token);
    return {
      domainName: invitation.domain_name,
      username: invitation.username,
      expiresAt: Number(invitation.expires_at),
    };
  }

  /** Sets the password and uses the link up; a second use, or a race with one, finds no link. */
  async accept(call: ClientCall, token: string, password: string): Promise<InvitationAcceptData> {
    const invitation = await this.live(token);
    const hash = await hashPassword(password);
    const accepted = await accountUsersRepository.acceptInvitation(
      this.db,
      hashToken(token),
      invitation.user_id,
      hash,
      this.options.now(),
    );
    if (!accepted) throw new NotFoundError('users.invitation_invalid');
    authEvent(call, 'auth.invitation_accepted', invitation.domain_name, invitation.username);
    return { domainName: invitation.domain_name, username: invitation.username };
  }

  private async live(token: string) {
    const invitation = await accountUsersRepository.invitationByToken(this.db, hashToken(token));
    if (!invitation) throw new NotFoundError('users.invitation_invalid');
    if (Number(invitation.expires_at) <= this.options.now()) throw new ForbiddenError('users.invitation_expired');
    return invitation;
  }
}

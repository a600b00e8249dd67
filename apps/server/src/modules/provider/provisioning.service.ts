import type {
  ProviderAccountCreateParams,
  ProviderService,
  ProviderTermination,
  providerUsageSchema,
} from '@panel247/contract/provider';
import type { z } from 'zod';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { type AdminService, allKeys } from '../admin/admin.service.ts';
import type { SessionService } from '../auth/session.service.ts';
import { COUNTED_LIMITS, type PlanLimits } from '../plans/plan.ts';
import type { PlansService } from '../plans/plans.service.ts';
import { SIGNON_TOKEN_SECONDS, type SignonTokens } from '../signon/signon-tokens.ts';
import { type ServiceTerminations, terminationView } from './service-termination.ts';

type ProviderUsage = z.infer<typeof providerUsageSchema>;
type ServiceView = NonNullable<Awaited<ReturnType<AdminService['providerView']>>>;

export interface ProvisioningPorts {
  admin: AdminService;
  plans: PlansService;
  sessions: SessionService;
  signon: SignonTokens;
  /**
   * A change of the service's whole web configuration on its web server: a new service's main
   * site and pool, a suspended one's "suspended" page, a lifted one's sites again.
   */
  applyWeb: (service: { id: number; domain: string }) => Promise<void>;
  /** Whether the service's mail and FTP logins may log in changed: their servers ask again. */
  loginsChanged: (service: { id: number; domain: string }) => Promise<void>;
  /** The service's home and databases, in bytes. */
  sizes: (service: { id: number; domain: string }) => Promise<{ webBytes: number; databaseBytes: number }>;
  terminations: Pick<ServiceTerminations, 'start' | 'latestOf' | 'waitFor'>;
  /** How long a termination call waits for the work to end before it answers `terminating`. */
  terminateWaitMs: number;
}

const MIB = 1024 * 1024;
const bytes = (mb: number | null) => (mb === null ? null : mb * MIB);

/** A plan's room for a service's home and databases together, in bytes; null when the web space has no limit. */
export function diskLimitBytes(plan: Pick<PlanLimits, 'webSpaceMb' | 'databaseSpaceMb'>): number | null {
  return plan.webSpaceMb === null ? null : (bytes(plan.webSpaceMb) ?? 0) + (bytes(plan.databaseSpaceMb) ?? 0);
}

/**
 * What the provider's systems do to hosting services through the provisioning API: create an
 * account with its owner and service on a plan, suspend and lift it, change its plan and owner's
 * password, hand out a one-time login link, and report usage. A service is named by its domain.
 */
export class ProvisioningService {
  constructor(private readonly ports: ProvisioningPorts) {}

  async createAccount(params: ProviderAccountCreateParams): Promise<{ service: ProviderService; username: string }> {
    const { admin } = this.ports;
    if (await admin.providerView(params.domain))
      throw new ConflictError('provider.error.account_exists', { domain: params.domain });
    const brand = params.brand || (await admin.defaultBrand());
    if (!brand || (await admin.listBrands()).every((each) => each.slug !== brand))
      throw new NotFoundError('provider.error.brand');
    // the plan first: a wrong name must leave nothing behind
    await this.ports.plans.get(params.plan || 'default');
    await admin.ensureAccount(params.domain, brand);
    await admin.ensureUser(params.domain, params.username, params.password);
    if (params.email) await admin.setUserEmail(params.domain, params.username, params.email);
    const id = await admin.ensureResource(params.domain, {
      reference: params.domain,
      hasService: true,
      hasMail: true,
      ...(params.plan ? { plan: params.plan } : {}),
    });
    await admin.grant(params.domain, params.username, params.domain, allKeys('write'));
    await this.ports.applyWeb({ id, domain: params.domain });
    return { service: await this.service(params.domain), username: params.username };
  }

  async service(domain: string): Promise<ProviderService> {
    return toService(await this.view(domain));
  }

  /**
   * Its users are logged out and cannot log in again (told why) until it is lifted, its sites
   * answer the "suspended" page, and its mail and FTP logins are refused; its mail keeps arriving
   * (a customer who pays reads what came meanwhile, and senders get no bounce for a bill).
   */
  async suspend(domain: string, reason: string): Promise<ProviderService> {
    const view = await this.view(domain);
    await this.ports.admin.setSuspended(view.id, reason);
    if (view.owner) await this.ports.sessions.endAllOfUser(view.owner.id);
    await this.applySuspension(view);
    return this.service(domain);
  }

  async unsuspend(domain: string): Promise<ProviderService> {
    const view = await this.view(domain);
    await this.ports.admin.setSuspended(view.id, null);
    await this.applySuspension(view);
    return this.service(domain);
  }

  /** Its sites' page, and its mail and FTP logins, on its servers. */
  private async applySuspension(view: ServiceView): Promise<void> {
    const service = { id: view.id, domain: view.domain };
    await this.ports.applyWeb(service);
    await this.ports.loginsChanged(service);
  }

  /**
   * Everything of the service removed from every daemon, its last backup kept for the configured
   * days (service-termination.ts); its account too when it has nothing else. Suspended first, so
   * nothing serves it or logs in while the work runs. Answers once the work has ended, or
   * `terminating` after `terminateWaitMs` (it goes on). Asked again, it answers how it went.
   */
  async terminate(domain: string): Promise<ProviderTermination> {
    const view = await this.ports.admin.providerView(domain);
    if (!view) {
      const earlier = await this.ports.terminations.latestOf(domain.toLowerCase());
      if (!earlier) throw new NotFoundError('provider.error.no_service');
      return terminationView(earlier);
    }
    if (view.registered) throw new ConflictError('provider.error.terminate_registered', { domain: view.domain });
    if (view.suspendedAt === null) {
      // no reason: its users are told it is suspended, in their language, until the account goes
      await this.ports.admin.setSuspended(view.id, '');
      if (view.owner) await this.ports.sessions.endAllOfUser(view.owner.id);
      await this.applySuspension(view);
    }
    await this.ports.terminations.start({ id: view.id, domain: view.domain, accountId: view.accountId });
    return terminationView(await this.ports.terminations.waitFor(view.id, this.ports.terminateWaitMs));
  }

  async changePlan(domain: string, plan: string): Promise<ProviderService> {
    const view = await this.view(domain);
    await this.ports.plans.assign({ id: view.id, domain: view.domain }, plan);
    return this.service(domain);
  }

  /** The owner's new password; their sessions end. */
  async changePassword(domain: string, password: string): Promise<ProviderService> {
    const view = await this.view(domain);
    if (!view.owner) throw new NotFoundError('provider.error.no_service');
    await this.ports.admin.resetPassword(view.account, view.owner.username, password);
    return this.service(domain);
  }

  /** A link that logs the owner in once, within SIGNON_TOKEN_SECONDS; its host is the brand's own when it has one. */
  async loginLink(domain: string, panelHost: string, basePath: string): Promise<{ url: string; expiresIn: number }> {
    const view = await this.view(domain);
    if (!view.owner) throw new NotFoundError('provider.error.no_service');
    const token = await this.ports.signon.issue('panel-login', view.owner.id);
    const host = (await this.ports.admin.brandHost(view.brandId)) ?? panelHost;
    return { url: `https://${host}${basePath}user/login/link/?token=${token}`, expiresIn: SIGNON_TOKEN_SECONDS };
  }

  async usage(domain: string): Promise<ProviderUsage> {
    const view = await this.view(domain);
    const service = { id: view.id, domain: view.domain };
    const { plan, usage } = await this.ports.plans.ofService(service);
    const { webBytes, databaseBytes } = await this.ports.sizes(service);
    const counts = Object.fromEntries(
      COUNTED_LIMITS.map((limit) => [limit, { used: usage.counts[limit], limit: plan[limit] }]),
    );
    return {
      domain: view.domain,
      plan: plan.name,
      diskBytes: webBytes + databaseBytes,
      diskLimitBytes: diskLimitBytes(plan),
      webBytes,
      databaseBytes,
      trafficBytes: 0,
      trafficLimitBytes: bytes(plan.trafficMb),
      counts,
    };
  }

  async usageOfAll(): Promise<ProviderUsage[]> {
    const all: ProviderUsage[] = [];
    for (const reference of await this.ports.admin.serviceReferences()) all.push(await this.usage(reference));
    return all;
  }

  private async view(domain: string): Promise<ServiceView> {
    const view = await this.ports.admin.providerView(domain);
    if (!view) throw new NotFoundError('provider.error.no_service');
    return view;
  }
}

function toService(view: ServiceView): ProviderService {
  return {
    id: view.id,
    domain: view.domain,
    plan: view.plan,
    state: view.suspendedAt === null ? 'active' : 'suspended',
    suspendedReason: view.suspendedReason,
  };
}

import {
  composeCaaValue,
  composeSrvName,
  composeSrvValue,
  DNS_DEFAULTS,
  type DnsFieldError,
  hasPriority,
  isHostName,
  SRV_SERVICES,
  splitCaaValue,
  splitSrvValue,
  toAsciiName,
  validateDnsRecord,
} from '@panel247/contract/dns-rules';

/**
 * The DNS record form works on text values (what the inputs hold); these helpers turn them into
 * the API's payload and back, and run the shared record rules on the composed record.
 */
export interface DnsFormValues {
  type: string;
  /** SRV: the predefined service picked ('' = other, free text). */
  srvChoice: string;
  /** SRV: the service label, e.g. `_sip`. */
  srvService: string;
  srvProtocol: string;
  /** The entered owner name (for SRV, the part after `_service._protocol`). */
  zona: string;
  /** MX and SRV: the record's priority. */
  priority: string;
  /**
   * SRV: the weight, the value's first number. Empty: it follows the priority field, as the spec's
   * composition does; an edited record shows its own weight when it differs.
   */
  srvWeight: string;
  port: string;
  caaFlag: string;
  caaTag: string;
  /** The value; for SRV the target host, for CAA the quoted part. */
  value: string;
  ttl: string;
}

export type DnsFormField = keyof DnsFormValues;

export const OTHER_SRV_SERVICE = '';

export function initialDnsFormValues(): DnsFormValues {
  return {
    type: DNS_DEFAULTS.type,
    srvChoice: SRV_SERVICES[0][1],
    srvService: SRV_SERVICES[0][1],
    srvProtocol: '_tcp',
    zona: '',
    priority: String(DNS_DEFAULTS.priority),
    srvWeight: '',
    port: '',
    caaFlag: '0',
    caaTag: 'issue',
    value: '',
    ttl: String(DNS_DEFAULTS.ttl),
  };
}

/** The edit form of a stored record: SRV and CAA values split back into their parts. */
export function dnsFormValuesFromRecord(record: {
  type: string;
  zona: string;
  value: string;
  ttl: number;
  priority: number;
}): DnsFormValues {
  const values: DnsFormValues = {
    ...initialDnsFormValues(),
    // the stored owner is already composed: no service or protocol to add in front of it
    srvChoice: OTHER_SRV_SERVICE,
    srvService: '',
    srvProtocol: '',
    type: record.type,
    zona: record.zona,
    value: record.value,
    ttl: String(record.ttl),
    priority: String(hasPriority(record.type) ? record.priority : DNS_DEFAULTS.priority),
  };
  if (record.type === 'SRV') {
    const parts = splitSrvValue(record.value);
    values.port = parts.port;
    values.value = parts.target;
    values.srvWeight = parts.weight === String(record.priority) ? '' : parts.weight;
  } else if (record.type === 'CAA') {
    const parts = splitCaaValue(record.value);
    values.caaFlag = parts.flag;
    values.caaTag = parts.tag;
    values.value = parts.target;
  }
  return values;
}

export interface DnsPayload {
  type: string;
  zona: string;
  value: string;
  ttl: number;
  priority: number;
}

/** The create payload: SRV owner and value, CAA value composed as the spec says. */
export function dnsPayload(values: DnsFormValues): DnsPayload {
  const type = values.type;
  const priority = hasPriority(type) ? Number(values.priority) : DNS_DEFAULTS.priority;
  let zona = values.zona.trim();
  let value = values.value.trim();
  if (type === 'SRV') {
    zona = composeSrvName(values.srvService.trim(), values.srvProtocol, zona);
    value = composeSrvValue(values.srvWeight.trim() || values.priority, values.port.trim(), value);
  } else if (type === 'CAA') {
    value = composeCaaValue(values.caaFlag.trim(), values.caaTag, value);
  }
  return { type, zona, value, ttl: Number(values.ttl), priority };
}

/** Where an error of the shared rules (or of the server) shows in this form. */
export function formFieldOf(type: string, error: DnsFieldError): DnsFormField {
  if (type === 'SRV') {
    if (error.messageKey === 'dns.error.srv_number') return 'port';
    if (error.messageKey === 'dns.error.srv_name') return 'srvService';
  }
  if (type === 'CAA') {
    if (error.messageKey === 'dns.error.caa_flag') return 'caaFlag';
    if (error.messageKey === 'dns.error.caa_tag') return 'caaTag';
  }
  return error.field;
}

/**
 * Client-side check of the whole form: the parts the composition needs (SRV port and service, CAA
 * flag), then the shared record rules on the composed record. Field → i18n key, first error wins.
 */
export function validateDnsForm(
  values: DnsFormValues,
  zoneName: string,
  mode: 'create' | 'edit',
): Partial<Record<DnsFormField, string>> {
  const errors: Partial<Record<DnsFormField, string>> = {};
  const add = (field: DnsFormField, key: string) => {
    if (!errors[field]) errors[field] = key;
  };
  if (values.type === 'SRV') {
    if (mode === 'create' && !values.srvService.trim()) add('srvService', 'validation.required');
    const weight = values.srvWeight.trim();
    if (weight && (!/^\d{1,5}$/.test(weight) || Number(weight) > 65535)) add('srvWeight', 'dns.error.srv_number');
    if (!values.port.trim()) add('port', 'validation.required');
    else if (!/^\d{1,5}$/.test(values.port.trim()) || Number(values.port) > 65535) add('port', 'dns.error.srv_number');
  }
  if (values.type === 'CAA') {
    if (!values.caaFlag.trim()) add('caaFlag', 'validation.required');
    else if (!/^\d{1,3}$/.test(values.caaFlag.trim()) || Number(values.caaFlag) > 255)
      add('caaFlag', 'dns.error.caa_flag');
  }
  const target = values.value.trim();
  if (!target) add('value', 'validation.required');
  else if (values.type === 'SRV' && target !== '.' && !isHostName(toAsciiName(target.replace(/\.$/, '')) ?? '')) {
    // checked on its own, so a wrong port does not hide a wrong target
    add('value', 'dns.error.host');
  }
  // a part already marked (port, flag, target) explains a malformed composed value better
  const partsMarked = Boolean(errors.port || errors.srvWeight || errors.caaFlag || errors.value);
  for (const error of validateDnsRecord(dnsPayload(values), zoneName).errors) {
    // in edit the name is fixed: its errors cannot be fixed here, the server has the last word
    if (mode === 'edit' && (error.field === 'zona' || error.field === 'type')) continue;
    if (partsMarked && (error.messageKey === 'dns.error.srv_value' || error.messageKey === 'dns.error.caa')) continue;
    add(formFieldOf(values.type, error), error.messageKey);
  }
  return errors;
}
